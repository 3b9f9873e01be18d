// bt optimize and walk-forward with spaces and options at their limits: refused at once with a
// sentence (exit 2), never a hang or an empty result (docs/cli.md "bt optimize").
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';
import { renderHeatmap } from '../src/optimize/heatmap.js';
import { workersInMemory } from '../src/optimize/setup.js';
import { spaceFromFlags } from '../src/optimize/space-flags.js';
import { bt, EURUSD_H1, tempDir } from './helpers.js';

const BASE = ['optimize', '--data', EURUSD_H1, '--strategy', 'fvg_pullback_multi', '--no-progress', '--concurrency', '1'];

test('a random search of more than 2^53 combinations is a usage error at once, not an endless draw', { timeout: 60_000 }, async () => {
  const huge = ['--param', 'min_wait_candles=0..19', '--param', 'max_wait_candles=1..1000', '--param', 'max_touch=1..1000', '--sl', '1..1000', '--tp1', '1..1000', '--tp2', '1..1000'];
  const run = await bt([...BASE, ...huge, '--random', '10']);
  assert.deepEqual(run, { code: 2, stdout: '', stderr: 'bt: 20,000,000,000,000,000 combinations (at most 9,007,199,254,740,991 for a random search: give fewer values)\n' });
});

const WALK = ['walk-forward', '--data', EURUSD_H1, '--strategy', 'englobante_entry', '--sl', '10,20', '--tp1', '20', '--no-progress', '--concurrency', '1'];

test('walk-forward windows: a step shorter than the out-of-sample window, a window under a minute or past 100 years, named by flag before any work', { timeout: 60_000 }, async () => {
  const nines = '9'.repeat(400);
  const cases: [string[], string][] = [
    // Overlapping out-of-sample windows pooled each trade up to three times (646 trades for 221).
    [['--in-sample', '60d', '--out-of-sample', '30d', '--step', '10d'], 'invalid --step: "10d" (expected at least --out-of-sample 30d: overlapping out-of-sample windows would count their trades more than once)'],
    [['--in-sample', '0.0001d', '--out-of-sample', '30d'], 'invalid --in-sample: "0.0001d" (expected a duration from 1min to 36500d, such as 180d, 12w, 36h or 30min)'],
    [['--in-sample', '60d', '--out-of-sample', `${nines}d`], `invalid --out-of-sample: "${nines.slice(0, 76)}... (expected a duration from 1min to 36500d, such as 180d, 12w, 36h or 30min)`],
    [['--in-sample', '60d', '--out-of-sample', '30d', '--step', '0min'], 'invalid --step: "0min" (expected a duration from 1min to 36500d, such as 180d, 12w, 36h or 30min)'],
  ];
  // A missing data file: the refusal must come before it is read.
  const runs = await Promise.all(cases.map(([args]) => bt([...WALK.map((a) => (a === EURUSD_H1 ? '/nonexistent/x.csv' : a)), ...args])));
  cases.forEach(([args, message], i) => assert.deepEqual(runs[i], { code: 2, stdout: '', stderr: `bt: ${message}\n` }, args.join(' ')));
  const tmp = tempDir();
  try {
    const ok = await bt([...WALK, '--in-sample', '60d', '--out-of-sample', '30d', '--step', '30d', '--json', '--csv', join(tmp.dir, 'folds.csv')]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(JSON.parse(ok.stdout).folds.length, 8, 'a step of the window itself: side by side');
  } finally {
    tmp.remove();
  }
});

test('no resolved trade in the period with --min-trades 0: the sentence does not advise lowering it', { timeout: 60_000 }, async () => {
  const tmp = tempDir();
  try {
    const base = ['optimize', '--data', EURUSD_H1, '--strategy', 'englobante_entry', '--sl', '10,20', '--tp1', '20', '--no-progress', '--concurrency', '1', '--csv', join(tmp.dir, 'o.csv')];
    const [none, few] = await Promise.all([bt([...base, '--min-trades', '0', '--from', '2030-01-01']), bt([...base, '--min-trades', '5', '--from', '2030-01-01'])]);
    assert.equal(none.code, 0, none.stderr);
    assert.match(none.stderr, /^bt: no combination has a resolved trade at TP1 \(widen the period, or try other values\)$/m);
    assert.match(few.stderr, /^bt: no combination has 5 resolved trades at TP1 \(lower --min-trades, or widen the period\)$/m);
  } finally {
    tmp.remove();
  }
});

test('ranges: read as before, and a value full of dots is refused in linear time', { timeout: 30_000 }, () => {
  const space = (sl: string) => spaceFromFlags('englobante_entry', { sl, tp1: '10' }, 'external').space.slPips;
  assert.deepEqual(space('10..30:5'), [10, 15, 20, 25, 30]);
  assert.deepEqual(space(' 1 .. 3 '), [1, 2, 3]);
  assert.deepEqual(space('0.5..1.5:0.5'), [0.5, 1, 1.5]);
  assert.deepEqual(space('1...3'), [1, 2, 3], '"1." then ".." then "3"');
  assert.deepEqual(space('10,20'), [10, 20]);
  assert.throws(() => space('5..1'), /expected from\.\.to\[:step\] with from ≤ to and a step > 0/);
  assert.throws(() => space('1..5:0..1'), { message: 'invalid --sl: "0..1" (expected a number; decimals take a dot)' });
  // 128 KB of dots, the most one argument holds: the old expression backtracked for half an hour.
  const started = Date.now();
  assert.throws(() => space(`1${'.'.repeat(131_000)}x`), /invalid --sl/);
  // A hang guard, not a speed target: half an hour against milliseconds, so 10 s holds on a
  // machine loaded twenty times over and still fails the backtracking expression.
  assert.ok(Date.now() - started < 10_000, `${Date.now() - started} ms`);
});

test('a walk-forward of more than 2,000,000 in-sample runs is refused before the first, exit 2', { timeout: 60_000 }, async () => {
  const run = await bt(['walk-forward', '--data', EURUSD_H1, '--strategy', 'englobante_entry', '--sl', '1..200', '--tp1', '1..1000', '--in-sample', '30d', '--out-of-sample', '7d', '--no-progress', '--concurrency', '1', '--csv', '-']);
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /^bt: invalid walk-forward: \d+ folds × 200,000 combinations are [\d,]+ in-sample runs, more than 2,000,000: use fewer folds \(a longer out-of-sample window or step\) or a smaller space \(fewer values, or a random search\)\n$/);
  assert.equal(run.stdout, '');
});

test('a heatmap past 40,000 cells is refused with the space, before the search; a no-loss cell takes the best colour', { timeout: 60_000 }, async () => {
  const run = await bt([...BASE.map((a) => (a === 'fvg_pullback_multi' ? 'englobante_entry' : a)), '--sl', '1..1000', '--tp1', '1..1000', '--random', '50', '--heatmap', 'sl_pips,tp1_pips']);
  assert.deepEqual(run, { code: 2, stdout: '', stderr: 'bt: invalid --heatmap: "sl_pips,tp1_pips" (1,000 × 1,000 values are 1,000,000 cells, at most 40,000: give these dimensions fewer values)\n' });
  const cells = [
    { x: '10', y: '10', value: 0.5, combinations: 1 },
    { x: '10', y: '20', value: Infinity, combinations: 1 },
    { x: '20', y: '10', value: null, combinations: 1 },
    { x: '20', y: '20', value: -0.25, combinations: 1 },
  ];
  const svg = await renderHeatmap(cells, 'sl_pips', 'tp1_pips', { title: 't', objective: 'expectancy (TP1)', format: 'svg' });
  assert.match(svg, />∞</);
  const fills = [...svg.matchAll(/<rect[^>]*fill="([^"]+)"/g)].map((m) => m[1]);
  assert.equal(fills.length, 3, 'the empty cell is not drawn');
  assert.equal(fills[0], fills[1], 'the no-loss cell has the best finite cell’s colour');
});

test('workers: as many as their copies of the candles fit in 8 GB; --concurrency past it is refused, the default lowered', () => {
  const tenMillion = { length: 10_000_000, extra: {} };
  assert.equal(workersInMemory(undefined, 64, tenMillion), 7, 'the default on a 64-core machine');
  assert.equal(workersInMemory('4', 4, tenMillion), 4);
  assert.throws(() => workersInMemory('64', 64, tenMillion), {
    message: 'invalid --concurrency: "64" (64 workers each holding a copy of the 10,000,000 candles, about 1.1 GB each, need about 72.5 GB; at most 7 fit in 8.0 GB)',
  });
  // A small file: every worker asked for.
  assert.equal(workersInMemory('64', 64, { length: 100_000, extra: { RSI_14: new Float64Array(0) } }), 64);
  // One worker always runs, however large the file.
  assert.equal(workersInMemory(undefined, 2, { length: 2_000_000_000, extra: {} }), 1);
});
