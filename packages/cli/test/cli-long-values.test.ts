// A refused value is quoted cut to 80 characters (errors.ts quoted(), as core's showValue cuts),
// never echoed whole: an argument can hold 128 KB and a plan field 16 MB, and all of it came back
// on stderr. Paths are named whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { quoted } from '../src/errors.js';
import { bt, EURUSD_H1, mapLimit, tempDir } from './helpers.js';

const LONG = '9'.repeat(100_000);

test('quoted() cuts a text past 80 characters as core\'s showValue does', () => {
  assert.equal(quoted('abc'), '"abc"');
  assert.equal(quoted(LONG), `"${'9'.repeat(76)}...`);
  assert.equal(quoted(LONG).length, 80);
  assert.equal(quoted(-1.5), '-1.5');
  assert.equal(quoted(undefined), 'undefined');
  assert.equal(quoted([LONG]).length, 80);
});

test('every flag that quotes a refused value quotes 80 characters of a 100 KB one', async () => {
  const backtest = ['backtest', '--data', EURUSD_H1, '--strategy', 'englobante_entry', '--sl', '10', '--tp1', '10'];
  const optimize = ['optimize', '--data', EURUSD_H1, '--strategy', 'englobante_entry', '--sl', '10', '--tp1', '10', '--no-progress'];
  const cases: string[][] = [
    [...backtest, '--from', LONG], [...backtest, '--to', LONG], ['backtest', '--data', EURUSD_H1, '--strategy', 'englobante_entry', '--sl', LONG, '--tp1', '10'],
    [...backtest, '--spread', LONG], [...backtest, '--monte-carlo', LONG], [...backtest, '--mc-method', LONG], [...backtest, '--mc-risk', LONG],
    [...optimize, '--concurrency', LONG], [...optimize, '--objective', LONG], [...optimize, '--min-trades', LONG], [...optimize, '--heatmap', LONG],
    [...optimize, '--param', `min_wait_candles=${LONG}`], [...optimize, '--param', LONG],
    ['walk-forward', ...optimize.slice(1), '--in-sample', LONG, '--out-of-sample', '30d'],
    ['zones', '--data', EURUSD_H1, '--pattern', LONG], ['symbols', '--class', LONG], ['batch', 'plan.yaml', '--rank-by', LONG],
    ['admin', 'users', '--limit', LONG], ['admin', 'metrics', 'overview', '--start', LONG], ['admin', 'import-output', 'x.zip', '--month', LONG],
  ];
  const runs = await mapLimit(cases, 4, (args) => bt(args, { env: { BT_API_URL: 'http://127.0.0.1:9', BT_API_KEY: 'k' } }));
  runs.forEach((r, i) => {
    const what = cases[i].map((a) => (a.length > 40 ? `${a.slice(0, 10)}…` : a)).join(' ');
    assert.equal(r.code, 2, `${what}: ${r.stderr.slice(0, 200)}`);
    assert.ok(r.stderr.length < 400, `${what}: ${r.stderr.length} characters: ${r.stderr.slice(0, 200)}`);
    assert.ok(r.stderr.includes(`"${'9'.repeat(76)}...`) || !r.stderr.includes('999'), `${what}: ${r.stderr.slice(0, 200)}`);
  });
});

test('a plan field holding 100 KB is quoted cut in its refusal', async () => {
  const tmp = tempDir();
  try {
    const plan = join(tmp.dir, 'plan.json');
    writeFileSync(plan, JSON.stringify({ strategies: ['englobante_entry'], data: [EURUSD_H1], sl: 10, tp1: 10, sl_mode: LONG }));
    const r = await bt(['batch', plan, '--no-progress']);
    assert.equal(r.code, 2);
    assert.ok(r.stderr.length < 400, `${r.stderr.length} characters`);
    assert.match(r.stderr, /sl_mode: "9{76}\.\.\. \(expected external or internal\)/);
  } finally {
    tmp.remove();
  }
});
