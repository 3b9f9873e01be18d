// The library's imports make their month files on the engine pool's threads (src/datasets/month-files.ts,
// the pool's `month-files` task, docs/queue.md): the same imports through a store with a pool and
// through one without give the same files, byte for byte, and the same index rows.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readCandlesCsv, withExtraColumns, type Candles } from '@bt/core/candles';
import { monthOf, sliceCandles, splitByMonth } from '../src/datasets/series.js';
import { DatasetStore } from '../src/datasets/store.js';
import { EnginePool } from '../src/jobs/pool.js';
import { LocalStorage } from '../src/storage/index.js';
import { TEST_DIALECT, openTestDatabase, type TestDatabase } from './support/db.js';
import { fixture } from './support/work.js';

describe(`library imports on the engine threads (${TEST_DIALECT})`, () => {
  const pool = new EnginePool(1);
  const work = mkdtempSync(join(tmpdir(), 'bt-import-threads-'));
  let dbs: TestDatabase[] = [];
  let threaded: DatasetStore;
  let inProcess: DatasetStore;
  before(async () => {
    dbs = [await openTestDatabase(), await openTestDatabase()];
    threaded = new DatasetStore(dbs[0].db, new LocalStorage(join(work, 'threaded')), () => {}, pool);
    inProcess = new DatasetStore(dbs[1].db, new LocalStorage(join(work, 'in-process')));
  });
  after(async () => {
    await pool.close();
    for (const d of dbs) await d.drop();
    rmSync(work, { recursive: true, force: true });
  });

  const series = readCandlesCsv(fixture('official/EURUSD_H1_2017-2018.csv'), { symbol: 'EURUSD', timeframe: 'H1' }).candles;
  const months = splitByMonth(series);

  /** Every file and index row of both libraries, compared. */
  async function assertSameLibraries(expectedPaths: number) {
    const rowsOf = async (store: DatasetStore) =>
      (await store.list()).map((d) => ({ path: d.path, ipcPath: d.ipcPath, rows: d.rows, first: d.firstCandle.getTime(), last: d.lastCandle.getTime(), checksum: d.checksum, bytes: d.bytes, source: d.source }));
    const [a, b] = [await rowsOf(threaded), await rowsOf(inProcess)];
    assert.equal(a.length, expectedPaths);
    assert.deepEqual(a, b);
    for (const row of a) {
      for (const path of [row.path, row.ipcPath]) {
        const [x, y] = [await threaded.library.read(path), await inProcess.library.read(path)];
        assert.ok(x.byteLength > 0, path);
        assert.equal(Buffer.compare(x, y), 0, `${path}: the same bytes`);
      }
    }
  }

  /** The values of every column, to check a caller's candles are left intact. */
  const snapshot = (c: Candles) => [c.length, ...[c.time, c.open, c.close, c.volume, ...Object.values(c.extra)].map((a) => Array.from(a))];

  it('importSeries: a series without RSI_14, some months kept, gives the same files and rows; the caller\'s candles intact', async () => {
    const kept = (month: string) => month !== months[2].month;
    const before = snapshot(series);
    const a = await threaded.importSeries(series, { symbol: 'EURUSD', timeframe: 'H1', source: 'test', months: kept });
    await inProcess.importSeries(series, { symbol: 'EURUSD', timeframe: 'H1', source: 'test', months: kept });
    assert.equal(a.length, months.length - 1);
    assert.ok(a.every((d) => d.month !== months[2].month));
    assert.deepEqual(snapshot(series), before);
    await assertSameLibraries(months.length - 1);
    // RSI_14 was computed over the whole series: the second month's file has it from its first row.
    const second = readCandlesCsv(await threaded.library.read(a[1].path)).candles;
    assert.ok(Number.isFinite(second.extra.RSI_14[0]));
  });

  it('importMonth: a month without RSI_14 (warm-up from the earlier months) and one with its own columns give the same files and rows', async () => {
    // The missing month, its RSI_14 warmed up by the month before it.
    const missing = months[2].candles;
    const before = snapshot(missing);
    await threaded.importMonth(missing, { symbol: 'EURUSD', timeframe: 'H1', month: months[2].month, source: 'admin' });
    await inProcess.importMonth(missing, { symbol: 'EURUSD', timeframe: 'H1', month: months[2].month, source: 'admin' });
    assert.deepEqual(snapshot(missing), before);
    const written = readCandlesCsv(await threaded.library.read((await threaded.list({ month: months[2].month }))[0].path)).candles;
    assert.ok(Number.isFinite(written.extra.RSI_14[0]), 'warmed up: RSI_14 from the first candle');
    // A month that brings RSI_14 and another column: both kept as they are.
    const last = months[months.length - 1];
    const own = withExtraColumns(last.candles, { EMA_5: Float64Array.from(last.candles.close, (c) => c + 1), RSI_14: Float64Array.from(last.candles.close, (_c, i) => (i < 3 ? NaN : 40 + (i % 20))) });
    await threaded.importMonth(own, { symbol: 'EURUSD', timeframe: 'H1', month: last.month, source: 'admin 2' });
    await inProcess.importMonth(own, { symbol: 'EURUSD', timeframe: 'H1', month: last.month, source: 'admin 2' });
    await assertSameLibraries(months.length);
    const header = new TextDecoder().decode((await threaded.library.read((await threaded.list({ month: last.month }))[0].path)).subarray(0, 60)).split('\n')[0];
    assert.equal(header, 'Datetime,Open,High,Low,Close,Volume,EMA_5,RSI_14');
  });

  it('importMonth: a first month of a series (no warm-up) through the pool, the same as in-process', async () => {
    const first = sliceCandles(months[0].candles, 0, 100);
    const labelled = { ...first, symbol: 'GBPUSD' };
    assert.equal(monthOf(first.time[0]), months[0].month);
    await threaded.importMonth(labelled, { symbol: 'GBPUSD', timeframe: 'H1', month: months[0].month, source: 'admin' });
    await inProcess.importMonth(labelled, { symbol: 'GBPUSD', timeframe: 'H1', month: months[0].month, source: 'admin' });
    await assertSameLibraries(months.length + 1);
  });
});
