// A refused --params-json is quoted cut to 80 characters (core's showValue), as every refused value
// is: an argument can hold 128 KB, and the whole of it came back on stderr.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rawParams } from '../src/request.js';
import { bt, EURUSD_H1 } from './helpers.js';

const RUN = ['backtest', '--data', EURUSD_H1, '--strategy', 'englobante_entry', '--sl', '10', '--tp1', '10', '--params-json'];

test('a 120 KB --params-json that does not parse is refused in a short sentence', async () => {
  const json = `{"min_wait_candles": ${'1'.repeat(120_000)}`;
  const r = await bt([...RUN, json]);
  assert.equal(r.code, 2);
  assert.equal(r.stdout, '');
  assert.ok(r.stderr.length < 300, `${r.stderr.length} characters on stderr`);
  // The parser's own words follow (they differ between Node versions; V8 cuts its own quote).
  assert.ok(r.stderr.startsWith(`bt: invalid --params-json: ${JSON.stringify(json).slice(0, 77)}... (expected a JSON object: `), r.stderr);
});

test('every --params-json refusal quotes at most 80 characters of what was given', () => {
  const long = 'x'.repeat(100_000);
  const cases: [string, string[]][] = [
    [JSON.stringify([long]), []],
    [`"${long}"`, []],
    [JSON.stringify({ [long]: [1] }), []],
    [JSON.stringify({ max_touch: long }), [`max_touch=${long}y`]],
    [JSON.stringify({ [long]: 1 }), [`${long}=2`]],
  ];
  for (const [json, words] of cases) {
    assert.throws(() => rawParams(words, json), (error: Error) => {
      assert.equal(error.name, 'UsageError');
      assert.ok(error.message.length < 300, `${error.message.length} characters: ${error.message.slice(0, 120)}`);
      return true;
    }, json.slice(0, 30));
  }
  assert.throws(() => rawParams([], '[1]'), { message: 'invalid --params-json: "[1]" (expected a JSON object of name: value)' });
  assert.throws(() => rawParams(['max_touch=3'], '{"max_touch": 2}'), { message: 'invalid max_touch: given twice with different values (--params-json 2, --param "3")' });
});
