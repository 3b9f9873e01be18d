// bt batch starts no more workers than their data fits in 8 GB, as bt optimize: each worker keeps
// copies of the last two data files it used, so one may hold the plan's two largest files. The
// candle counts are measured by reading each distinct file once before the runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { batchWorkerBytes, batchWorkersInMemory, dataSizes } from '../src/batch/memory.js';
import type { DataSpec } from '../src/batch/plan.js';
import { workerBytes } from '../src/optimize/setup.js';
import { bt, EURUSD_H1, tempDir } from './helpers.js';

const size = (length: number, extra = 0) => ({ length, extra: Object.fromEntries(Array.from({ length: extra }, (_, i) => [`X${i}`, new Float64Array(0)])) });

test('a worker may hold the two largest files: as many workers as that fits in 8 GB', () => {
  const tenMillion = size(10_000_000);
  // Two ten-million-candle files held by one worker: twice the copy, one worker's own 16 MB.
  assert.equal(batchWorkerBytes([tenMillion, tenMillion, size(10)]), 2 * workerBytes(tenMillion) - 16 * 2 ** 20);
  assert.equal(batchWorkerBytes([tenMillion]), workerBytes(tenMillion));
  assert.equal(batchWorkersInMemory(undefined, 64, [tenMillion, tenMillion, tenMillion]), 3, 'the default on a 64-core machine is lowered');
  assert.equal(batchWorkersInMemory('3', 3, [tenMillion, tenMillion]), 3);
  assert.throws(() => batchWorkersInMemory('64', 64, [tenMillion, tenMillion, size(5)]), {
    message: 'invalid --concurrency: "64" (64 workers each holding up to 2 of the plan\'s data files, the largest of 10,000,000 candles, about 2.3 GB each, need about 144.1 GB; at most 3 fit in 8.0 GB)',
  });
  // Small files: every worker asked for; one worker always runs, however large the files.
  assert.equal(batchWorkersInMemory('64', 64, [size(100_000, 3), size(24_000)]), 64);
  assert.equal(batchWorkersInMemory(undefined, 8, [size(2_000_000_000)]), 1);
});

test('each distinct data file is read once for its candle count; one that does not read counts as empty', async () => {
  const tmp = tempDir();
  try {
    const bad = join(tmp.dir, 'bad.csv');
    writeFileSync(bad, 'not,a,candle,file\n');
    const spec = (path: string): DataSpec => ({ path, label: path, read: {}, symbol: 'EURUSD' });
    const sizes = await dataSizes([spec(EURUSD_H1), spec(bad), spec(EURUSD_H1), spec(join(tmp.dir, 'missing.csv'))]);
    assert.deepEqual(sizes.map((s) => [s.length, Object.keys(s.extra).length]), [[5000, 0], [0, 0], [0, 0]]);
  } finally {
    tmp.remove();
  }
});

test('a plan on small files runs on the workers asked for', async () => {
  const tmp = tempDir();
  try {
    const plan = join(tmp.dir, 'plan.yaml');
    writeFileSync(plan, `strategies: [englobante_entry, ob_pullback_pure, fvg_impulsive]\ndata: ["${EURUSD_H1}"]\nsl: 10\ntp1: 10\n`);
    const r = await bt(['batch', plan, '--no-progress', '--concurrency', '64', '--csv', join(tmp.dir, 'runs.csv')]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\n3 runs in [\d.]+ s on 3 workers: 3 ok, 0 failed/);
  } finally {
    tmp.remove();
  }
});
