import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readCandlesCsv, readCandlesIpc } from '@bt/core/candles';
import { readCandlesFile } from '@bt/core/node';
import { resampleCandles } from '../src/datasets/series.js';
import { higherLibraryTimeframes } from '../src/datasets/seed.js';
import { type TestApp, useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { FIXTURES } from './support/work.js';

const t = useTestApp({ library: true });

describe(`dataset store (${TEST_DIALECT})`, () => {
  it('holds the fixtures with a catalogue symbol, by month, with rows, first/last candle and checksum', async () => {
    const rows = await t.db.models.Dataset.findAll({ order: [['path', 'ASC']] });
    const series = [...new Set(rows.map((r) => `${r.symbol} ${r.timeframe}`))].sort();
    assert.deepEqual(series, ['EU50 H1', 'EU50 H4', 'EU50 M15', 'EU50 M30', 'EU50 M5', 'EURUSD H1', 'EURUSD H4', 'EURUSD M15', 'EURUSD M30']);
    for (const row of rows) {
      const csv = await t.app.deps.library.read(row.path);
      assert.equal(row.checksum, createHash('sha256').update(csv).digest('hex'), row.path);
      assert.equal(row.bytes, csv.byteLength);
      const candles = readCandlesCsv(csv, { file: row.path }).candles;
      assert.equal(candles.length, row.rows, row.path);
      assert.equal(candles.time[0], row.firstCandle.getTime());
      assert.equal(candles.time[candles.length - 1], row.lastCandle.getTime());
      assert.equal(new Date(candles.time[0]).toISOString().slice(0, 7), row.month);
      assert.equal(new Date(candles.time[candles.length - 1]).toISOString().slice(0, 7), row.month);
      const ipc = readCandlesIpc(await t.app.deps.library.read(row.ipcPath)).candles;
      assert.deepEqual([...ipc.close], [...candles.close], `${row.path}: the Arrow copy holds the same values`);
    }
  });

  it('converts each source to UTC as documented, and every month of a series adds up to the source', async () => {
    // The Euro Stoxx file (exchange time, CET = UTC+1): its first candle 2006-01-02 09:05 is 08:05 UTC.
    const eu50 = (await readCandlesFile(FIXTURES + 'backtrader/2006-min-005.txt', { utcOffset: '+01:00' })).candles;
    const loaded = await t.app.services.datasets.load('EU50', 'M5', Date.UTC(2006, 0, 1), Date.UTC(2006, 0, 31, 23, 59), 0);
    assert.equal(loaded!.candles.length, eu50.length);
    assert.equal(new Date(loaded!.candles.time[0]).toISOString(), '2006-01-02T08:05:00.000Z');
    assert.deepEqual([...loaded!.candles.close], [...eu50.close]);
    // The smc EURUSD M15 file, read at UTC+2, spans 13 months.
    const smc = (await readCandlesFile(FIXTURES + 'smc/EURUSD_15M.csv', { utcOffset: '+02:00' })).candles;
    const months = await t.db.models.Dataset.findAll({ where: { symbol: 'EURUSD', timeframe: 'M15' } });
    assert.equal(months.length, 13);
    assert.equal(months.reduce((n, m) => n + m.rows, 0), smc.length);
  });

  it('resamples finer data into the higher library timeframes (UTC-aligned buckets)', async () => {
    assert.deepEqual(higherLibraryTimeframes('M5'), ['M15', 'M30', 'H1', 'H4']);
    assert.deepEqual(higherLibraryTimeframes('M15'), ['M30', 'H1', 'H4']);
    assert.deepEqual(higherLibraryTimeframes('H1'), ['H4']);
    const m15 = (await readCandlesFile(FIXTURES + 'smc/EURUSD_15M.csv', { utcOffset: '+02:00' })).candles;
    const h4 = resampleCandles(m15, 'H4');
    // An independent recount of one bucket from the source rows.
    const bucket = h4.time[100];
    const inside = [...m15.time.keys()].filter((i) => m15.time[i] >= bucket && m15.time[i] < bucket + 4 * 3_600_000);
    assert.equal(bucket % (4 * 3_600_000), 0);
    assert.equal(h4.open[100], m15.open[inside[0]]);
    assert.equal(h4.close[100], m15.close[inside.at(-1)!]);
    assert.equal(h4.high[100], Math.max(...inside.map((i) => m15.high[i])));
    assert.equal(h4.low[100], Math.min(...inside.map((i) => m15.low[i])));
    const stored = await t.app.services.datasets.load('EURUSD', 'H4', h4.time[100], h4.time[100], 0);
    assert.deepEqual([stored!.candles.open[0], stored!.candles.high[0], stored!.candles.low[0], stored!.candles.close[0]], [h4.open[100], h4.high[100], h4.low[100], h4.close[100]]);
  });

  it('loads a period with its warm-up from earlier months, nothing after the end', async () => {
    const from = Date.UTC(2023, 1, 1);
    const to = Date.UTC(2023, 1, 10, 23, 59, 59, 999);
    const loaded = (await t.app.services.datasets.load('EURUSD', 'M15', from, to))!;
    assert.equal(loaded.start, 500, '500 warm-up candles, taken from January');
    assert.ok(loaded.candles.time[loaded.start - 1] < from && loaded.candles.time[loaded.start] >= from);
    assert.ok(loaded.candles.time[loaded.candles.length - 1] <= to);
    assert.ok(Number.isFinite(loaded.candles.extra.RSI_14[0]), 'RSI_14 from the file, continuous across months');
    assert.equal(await t.app.services.datasets.load('EURUSD', 'M15', Date.UTC(2030, 0, 1), Date.UTC(2030, 0, 2)), null);
  });

  it('reindex rebuilds the index from the files: a removed month disappears, a missing Arrow copy is rewritten', async () => {
    const store = t.app.services.datasets;
    const gone = 'EURUSD/H4/EURUSD_H4_2023-10.csv';
    unlinkSync(join(t.libraryDir, gone));
    rmSync(join(t.libraryDir, 'EURUSD/H4/EURUSD_H4_2023-09.arrow'));
    const result = await store.reindex();
    assert.equal(result.datasets, 78);
    assert.equal(await store.byPath(gone), null);
    assert.ok(await t.app.deps.library.exists('EURUSD/H4/EURUSD_H4_2023-09.arrow'));
    const listed = await t.request('GET', '/api/list_csv_library?symbol=EURUSD&timeframe=H4');
    assert.ok(!listed.body.files.some((f: { path: string }) => f.path === gone));
  });
});
