import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { candlesFromColumns, readCandlesCsv, readCandlesIpc } from '@bt/core/candles';
import { lowerBound } from '@bt/core/simulate';
import { readCandlesFile } from '@bt/core/node';
import { resampleCandles, sliceCandles } from '../src/datasets/series.js';
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

  it('a month whose Arrow copy does not read is loaded from its CSV, not a 500', async () => {
    const path = join(t.libraryDir, 'EURUSD/M15/EURUSD_M15_2023-04.arrow');
    writeFileSync(path, readFileSync(path).subarray(0, 200));
    const from = Date.UTC(2023, 3, 3);
    const to = Date.UTC(2023, 3, 7, 23, 59, 59, 999);
    const loaded = (await t.app.services.datasets.load('EURUSD', 'M15', from, to, 0))!;
    const csv = readCandlesCsv(readFileSync(join(t.libraryDir, 'EURUSD/M15/EURUSD_M15_2023-04.csv'))).candles;
    const start = lowerBound(csv.time, from);
    assert.deepEqual(Array.from(loaded.candles.close.subarray(0, 5)), Array.from(csv.close.subarray(start, start + 5)));
    assert.ok(t.logs.includes('dataset EURUSD/M15/EURUSD_M15_2023-04.csv: Arrow copy unreadable, reading the CSV'));
    // Newer than its CSV, the copy looked fresh: a reindex dropped the month instead of rewriting it.
    const reindexed = await t.app.services.datasets.reindex();
    assert.deepEqual(reindexed.errors, []);
    assert.equal(readCandlesIpc(readFileSync(path)).candles.length, csv.length);
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

describe(`GET /api/datasets (${TEST_DIALECT})`, () => {
  it('lists per symbol and timeframe the first and last candle, candles, months and the runs of months, without a key', async () => {
    const res = await t.request('GET', '/api/datasets');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=300');
    assert.deepEqual(res.body.symbols.map((s: { symbol: string }) => s.symbol), ['EU50', 'EURUSD']);
    assert.equal(res.body.instruments, 2);
    const eurusd = res.body.symbols[1];
    assert.deepEqual(
      { label: eurusd.label, asset_class: eurusd.asset_class, pip_size: eurusd.pip_size, first: eurusd.first_candle, last: eurusd.last_candle },
      { label: 'EUR/USD', asset_class: 'forex', pip_size: 0.0001, first: '2017-04-19T08:00:00.000Z', last: '2023-10-02T04:45:00.000Z' },
    );
    assert.deepEqual(eurusd.timeframes.map((tf: { timeframe: string }) => tf.timeframe), ['M15', 'M30', 'H1', 'H4']);
    const h1 = eurusd.timeframes.find((tf: { timeframe: string }) => tf.timeframe === 'H1');
    // Two runs of months with nothing between: one range would promise 2018-2022.
    assert.deepEqual(h1.ranges, [
      { first_candle: '2017-04-19T09:00:00.000Z', last_candle: '2018-02-07T15:00:00.000Z' },
      { first_candle: '2022-10-09T22:00:00.000Z', last_candle: '2023-10-02T04:00:00.000Z' },
    ]);
    // Every figure equals the index: candles and months summed over the month rows.
    for (const tf of eurusd.timeframes) {
      const rows = await t.db.models.Dataset.findAll({ where: { symbol: 'EURUSD', timeframe: tf.timeframe } });
      assert.equal(tf.months, rows.length);
      assert.equal(tf.candles, rows.reduce((n, r) => n + r.rows, 0));
      assert.equal(tf.first_candle, new Date(Math.min(...rows.map((r) => r.firstCandle.getTime()))).toISOString());
      assert.equal(tf.last_candle, new Date(Math.max(...rows.map((r) => r.lastCandle.getTime()))).toISOString());
    }
  });

  it('filters by symbol (any usual spelling) and timeframe; answers 304 to its ETag', async () => {
    const one = await t.request('GET', '/api/datasets?symbol=eur/usd&timeframe=h4');
    assert.equal(one.status, 200);
    assert.deepEqual(one.body.symbols.map((s: { symbol: string; timeframes: { timeframe: string }[] }) => [s.symbol, s.timeframes.map((x) => x.timeframe)]), [['EURUSD', ['H4']]]);
    const none = await t.request('GET', '/api/datasets?symbol=XAUUSD');
    assert.deepEqual([none.status, none.body.symbols], [200, []]);
    const etag = one.headers.get('etag')!;
    assert.match(etag, /^"[\w-]{22}"$/);
    const again = await t.request('GET', '/api/datasets?symbol=EURUSD&timeframe=H4', { headers: { 'If-None-Match': etag } });
    assert.deepEqual([again.status, again.text], [304, '']);
  });

  it('bad input is a 400 with its French detail, never a 500; any key (or none) gets the same public answer', async () => {
    const cases: [string, string][] = [
      ['?symbol=NOPE', 'Symbole inconnu : « NOPE ».'],
      ['?timeframe=M1', 'Unité de temps non disponible pour les données officielles : « M1 » (H4, H1, M30, M15, M5).'],
      ['?timeframe=W9', 'Unité de temps non disponible pour les données officielles : « W9 » (H4, H1, M30, M15, M5).'],
      [`?symbol=${'A'.repeat(5000)}`, `Symbole inconnu : « ${'A'.repeat(40)} ».`],
      ['?symbol=%27%22', 'Symbole inconnu : « \'" ».'],
      // A NUL is refused by the input helpers before anything looks the symbol up.
      ['?symbol=%00%27%22', 'Champ « symbol » : caractère nul (U+0000) refusé.'],
      ['?symbol=EURUSD&symbol=GBPUSD', 'Champ « symbol » : une seule valeur attendue (pas une liste ni un objet).'],
    ];
    for (const [query, detail] of cases) {
      const res = await t.request('GET', `/api/datasets${query}`);
      assert.deepEqual([res.status, res.body?.detail], [400, detail], query);
    }
    const open = await t.request('GET', '/api/datasets');
    const withBadKey = await t.request('GET', '/api/datasets', { key: 'not-a-key' });
    assert.deepEqual([withBadKey.status, withBadKey.body], [200, open.body]);
    const post = await t.request('POST', '/api/datasets', { json: {} });
    assert.equal(post.status, 405);
  });

  it('a new month in the library shows at once (the cached summary is dropped on import)', async () => {
    const before = (await t.request('GET', '/api/datasets?symbol=EU50&timeframe=M5')).body.symbols[0].timeframes[0];
    const eu50 = (await readCandlesFile(FIXTURES + 'backtrader/2006-min-005.txt', { utcOffset: '+01:00' })).candles;
    // January's candles moved 31 days on, those that land in February only.
    const week = sliceCandles(eu50, 0, lowerBound(eu50.time, Date.UTC(2006, 0, 28)));
    const february = candlesFromColumns(
      { time: week.time.map((ms) => ms + 31 * 86_400_000), open: week.open, high: week.high, low: week.low, close: week.close, volume: week.volume },
      { symbol: 'EU50', timeframe: 'M5' },
    );
    await t.app.services.datasets.importSeries(february, { symbol: 'EU50', timeframe: 'M5', source: 'test: January moved to February' });
    const after = (await t.request('GET', '/api/datasets?symbol=EU50&timeframe=M5')).body.symbols[0].timeframes[0];
    assert.equal(after.months, before.months + 1);
    assert.equal(after.ranges.length, 1, 'January and February are one run');
    assert.equal(after.last_candle, new Date(february.time[february.length - 1]).toISOString());
  });
});
