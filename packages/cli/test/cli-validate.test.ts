// bt validate: every malformed fixture reported with the problems core's reader finds (the
// expected list is fixtures/bad/expected.json), exit 1; good files exit 0; flags checked first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { bt, EURUSD_H1, fixture, mapLimit } from './helpers.js';

interface Expected {
  options?: Record<string, string>;
  problems: { code: string; line: number; column?: string; message: string }[];
  omitted: number;
}
const expected = JSON.parse(readFileSync(fixture('bad/expected.json'), 'utf8')) as Record<string, Expected>;

test('good files: one ok line each with candles, timeframe, symbol and period; exit 0', async () => {
  const r = await bt(['validate', EURUSD_H1, fixture('freqtrade/ETH_BTC-5m.json')]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    r.stdout,
    `ok    ${EURUSD_H1}: 5,000 candles, H1, EURUSD, 2017-04-19T09:00:00Z → 2018-02-07T15:00:00Z (official)\n` +
      `ok    ${fixture('freqtrade/ETH_BTC-5m.json')}: 5,760 candles, M5, ETH-BTC, 2018-01-10T04:55:00Z → 2018-01-30T04:50:00Z (freqtrade)\n`,
  );
  assert.equal(r.stderr, '');
});

/** Reader options of a fixture as the CLI flags that set them. */
const FLAGS: Record<string, string> = { timeframe: '--timeframe', utcOffset: '--utc-offset', format: '--format', duplicates: '--duplicates', symbol: '--symbol' };
const flagsOf = (options: Record<string, string> = {}) => Object.entries(options).flatMap(([k, v]) => [FLAGS[k], String(v)]);

test('every malformed fixture: FAIL with each problem core lists (line, column, message, fix), exit 1', async () => {
  const plain = Object.keys(expected).filter((n) => !expected[n].options);
  const withOptions = Object.keys(expected).filter((n) => expected[n].options);
  const runs = [
    { names: plain, run: await bt(['validate', ...plain.map((n) => fixture(`bad/${n}`))]) },
    ...(await Promise.all(withOptions.map(async (n) => ({ names: [n], run: await bt(['validate', fixture(`bad/${n}`), ...flagsOf(expected[n].options)]) })))),
  ];
  for (const { names, run: r } of runs) {
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `bt: ${names.length} of ${names.length} file${names.length === 1 ? '' : 's'} cannot be used\n`);
    const blocks = r.stdout.split(/^(?=FAIL  )/m);
    assert.equal(blocks.length, names.length);
    names.forEach((name, i) => {
      const block = blocks[i];
      const e = expected[name];
      const total = e.problems.length + e.omitted;
      assert.ok(block.startsWith(`FAIL  ${fixture(`bad/${name}`)}: ${total} problem${total === 1 ? '' : 's'}\n`), `${name}: ${block.split('\n')[0]}`);
      for (const p of e.problems) assert.ok(block.includes(`\n      ${p.message}\n        fix: `), `${name}: ${p.message}`);
      if (e.omitted > 0) assert.ok(block.includes(`… and ${e.omitted} more problem`), name);
    });
  }
});

test('--json lists problems with code, line, column and fix', async () => {
  const r = await bt(['validate', fixture('bad/mixed-problems.csv'), EURUSD_H1, '--json']);
  assert.equal(r.code, 1);
  const json = JSON.parse(r.stdout);
  assert.equal(json.command, 'validate');
  assert.equal(json.valid, 1);
  assert.equal(json.invalid, 1);
  const [bad, good] = json.files;
  assert.equal(bad.ok, false);
  assert.deepEqual(
    bad.problems.map((p: { code: string; line: number; column?: string; message: string }) => ({ code: p.code, line: p.line, column: p.column, message: p.message })),
    expected['mixed-problems.csv'].problems.map((p) => ({ code: p.code, line: p.line, column: p.column, message: p.message })),
  );
  assert.ok(bad.problems.every((p: { fix: string }) => p.fix.length > 0));
  assert.equal(good.ok, true);
  assert.equal(good.candles, 5000);
});

test('reading options: a naive-time file fails without --utc-offset and loads with it', async () => {
  const smc = fixture('smc/EURUSD_15M.csv');
  const without = await bt(['validate', smc]);
  assert.equal(without.code, 1);
  assert.match(without.stdout, /has no UTC offset, so it is a local time \(24423 other lines have the same problem\)/);
  const withOffset = await bt(['validate', smc, '--utc-offset', '+02:00']);
  assert.equal(withOffset.code, 0);
  assert.equal(withOffset.stdout, `ok    ${smc}: 24,424 candles, M15, EURUSD, 2022-10-09T22:00:00Z → 2023-10-02T04:45:00Z (metatrader)\n`);
});

test('real exports read as published (fixtures/market): tab-separated, and one file without a header row', async () => {
  const tabs = fixture('market/USA500IDXUSD_H1.csv');
  const headerless = fixture('market/AUDCHF_H4.csv');
  const r = await bt(['validate', tabs, headerless, '--format', 'auto', '--utc-offset', 'UTC']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    r.stdout,
    `ok    ${tabs}: 8,902 candles, H1, US500, 2022-03-01T00:00:00Z → 2023-09-11T09:00:00Z (plain)\n` +
      `ok    ${headerless}: 2,477 candles, H4, AUDCHF, 2022-03-01T00:00:00Z → 2023-09-11T08:00:00Z (plain)\n` +
      '      warning: line 1: the file has no header row; its 6 columns are read in the order Time, Open, High, Low, Close, Volume\n',
  );
  // The official format stays strict; the GMT times still need their offset stated.
  const strict = await bt(['validate', headerless, '--format', 'official', '--utc-offset', 'UTC']);
  assert.equal(strict.code, 1);
  assert.match(strict.stdout, /line 1: "2022-03-01 00:00" is data, not a column name: the header line is missing/);
  const naive = await bt(['validate', tabs]);
  assert.equal(naive.code, 1);
  assert.match(naive.stdout, /line 2, column Time: "2022-03-01 00:00:00" has no UTC offset, so it is a local time \(8901 other lines have the same problem\)/);
});

test('bad input: a missing file is a FAIL line (exit 1); bad flags are usage errors (exit 2)', async () => {
  const missing = await bt(['validate', fixture('nope.csv')]);
  assert.deepEqual(missing, { code: 1, stdout: `FAIL  ${fixture('nope.csv')}: cannot read ${fixture('nope.csv')}: no such file\n`, stderr: 'bt: 1 of 1 file cannot be used\n' });
  const cases: [string[], string][] = [
    [['--utc-offset', 'Paris'], 'bt: invalid --utc-offset: "Paris" (expected an offset such as +02:00, -05:00, +0530, Z or UTC, or minutes east of UTC)\n'],
    [['--format', 'excel'], 'bt: invalid --format: "excel" (expected auto or one of official, custom, plain, metatrader, backtesting, backtrader, freqtrade)\n'],
    [['--timeframe', 'W1'], 'bt: invalid --timeframe: W1 (expected one of M1, M5, M15, M30, H1, H4, D1)\n'],
    [['--max-problems', '0'], 'bt: invalid --max-problems: "0" (expected a whole number ≥ 1)\n'],
    [['--duplicates', 'last'], 'bt: invalid --duplicates: "last" (expected error or keep-first)\n'],
  ];
  const runs = await mapLimit(cases, 4, ([flags]) => bt(['validate', EURUSD_H1, ...flags]));
  cases.forEach(([flags, stderr], i) => assert.deepEqual(runs[i], { code: 2, stdout: '', stderr }, flags.join(' ')));
  const none = await bt(['validate']);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /^bt: missing required argument 'files'/);
});
