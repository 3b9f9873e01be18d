// A batch plan whose grid multiplies past 100,000 runs is refused from the sizes of its lists,
// before a single combination is built (src/batch/plan.ts runCount): three parameters of 1,000
// values used to build a billion objects until the process died of memory, printing V8's trace.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { expandPlan } from '../src/batch/plan.js';
import { bt, EURUSD_H1, tempDir } from './helpers.js';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

test('a parameter grid of a billion runs: exit 2 with the count, at once', { timeout: 60_000 }, async () => {
  const tmp = tempDir();
  try {
    const plan = join(tmp.dir, 'huge.json');
    writeFileSync(plan, JSON.stringify({ strategies: ['fvg_pullback_multi'], data: EURUSD_H1, sl: 10, tp1: 10, params: { min_wait_candles: range(0, 999), max_wait_candles: range(1, 1000), max_touch: range(1, 1000) } }));
    const started = Date.now();
    const run = await bt(['batch', plan, '--no-progress']);
    assert.deepEqual(run, { code: 2, stdout: '', stderr: `bt: invalid plan ${plan}: 1,000,000,000 runs, more than 100,000: narrow the grid\n` });
    // A hang guard, not a speed target: a billion runs take days (or the memory), the refusal a
    // process start; 45 s leaves a machine loaded twenty times over time to start one.
    assert.ok(Date.now() - started < 45_000, `${Date.now() - started} ms`);
  } finally {
    tmp.remove();
  }
});

test('exits multiply too: three lists of 1,000 pips are refused before their product is built', { timeout: 30_000 }, () => {
  const plan = { strategies: ['englobante_entry'], data: EURUSD_H1, sl: range(1, 1000), tp1: range(1, 1000), tp2: range(1, 1000) };
  assert.throws(() => expandPlan(plan, 'exits.json'), { message: 'invalid plan exits.json: 1,000,000,000 runs, more than 100,000: narrow the grid' });
});

test('runs add up over strategies and data files; exactly 100,000 is allowed, numbered 1..n', { timeout: 60_000 }, () => {
  // 24 strategies x 2 files x 2,084 exits = 100,032: one over.
  const over = { strategies: 'all', data: [EURUSD_H1, EURUSD_H1], sl: range(1, 2084), tp1: 10 };
  assert.throws(() => expandPlan(over, 'all.json'), { message: 'invalid plan all.json: 100,032 runs, more than 100,000: narrow the grid' });
  const exact = expandPlan({ strategies: ['englobante_entry'], data: EURUSD_H1, sl: range(1, 1000), tp1: range(1, 100) }, 'exact.json');
  assert.equal(exact.runs.length, 100_000);
  assert.deepEqual([exact.runs[0].id, exact.runs.at(-1)!.id], [1, 100_000]);
});
