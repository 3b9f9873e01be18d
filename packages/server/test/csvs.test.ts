import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readCandlesCsv } from '@bt/core/candles';
import { PARTIAL_EDGE_MS, isPartialMonth } from '../src/csvs/coverage.js';
import { type TestApp, useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { balance, fixture, funded, ledgerRows } from './support/work.js';

const t = useTestApp({ library: true });

const PATH = 'EURUSD/H1/EURUSD_H1_2023-01.csv';

describe(`CSV library (${TEST_DIALECT})`, () => {
  it('GET /api/list_csv_library lists the library months (library timeframes only), with filters and the owned flag', async () => {
    const all = await t.request('GET', '/api/list_csv_library');
    assert.equal(all.status, 200);
    assert.equal(all.body.total, 79);
    assert.deepEqual(all.body.symbols, ['EU50', 'EURUSD']);
    assert.deepEqual([...all.body.timeframes].sort(), ['H1', 'H4', 'M15', 'M30', 'M5']);
    const item = all.body.files.find((f: { path: string }) => f.path === PATH);
    assert.deepEqual([item.pair, item.tf, item.name, item.year, item.month, item.period, item.source, item.label], ['EURUSD', 'H1', 'EURUSD_H1_2023-01.csv', 2023, 1, '2023-01', 'library', 'EUR/USD']);
    assert.equal(item.owned, undefined, 'no owned flag for a visitor');
    const filtered = await t.request('GET', '/api/list_csv_library?pair=eurusd&tf=h4&year=2017');
    assert.equal(filtered.body.total, 9);
    assert.ok(filtered.body.files.every((f: { timeframe: string; year: number }) => f.timeframe === 'H4' && f.year === 2017));
    assert.equal((await t.request('GET', '/api/list_csv_library?symbol=ALL&month=2006-01')).body.total, 5);
    assert.equal((await t.request('GET', '/api/list_csv_library?timeframe=M1')).body.total, 0, 'M1 is not a library timeframe');
    assert.equal((await t.request('GET', '/api/list_csv_library?symbol=NOPE')).body.total, 0);
  });

  it('flags the months whose data start late, stop early or are not over, with their candle count (real fixtures)', async () => {
    const files: { path: string; partial: boolean; rows: number; first_candle: string; last_candle: string }[] = (await t.request('GET', '/api/list_csv_library?pair=EURUSD&tf=H1')).body.files;
    const month = (period: string) => files.find((f) => f.path === `EURUSD/H1/EURUSD_H1_${period}.csv`)!;
    // fixtures/EURUSD.csv starts on 19 April 2017: April is partial, May is whole.
    assert.equal(month('2017-04').partial, true, month('2017-04').first_candle);
    assert.equal(month('2017-05').partial, false);
    assert.equal(month('2023-01').partial, false);
    assert.ok(month('2017-04').rows > 0 && month('2017-04').rows < month('2017-05').rows, 'the count says how much is there');
    const last = files.map((f) => f.path).sort().at(-1)!;
    const lastMonth = files.find((f) => f.path === last)!;
    assert.equal(lastMonth.partial, Date.UTC(Number(last.slice(-11, -7)), Number(last.slice(-6, -4)), 1) - Date.parse(lastMonth.last_candle) > PARTIAL_EDGE_MS, last);
    assert.ok(files.some((f) => !f.partial) && files.some((f) => f.partial));
  });

  it('isPartialMonth: four days of margin at each end (weekends, 1 January), and a month not over yet is partial', () => {
    const at = (iso: string) => new Date(iso);
    const later = at('2030-01-01T00:00:00Z');
    // January 2021: the 1st is a Friday holiday, forex reopens Sunday 3rd at 22:00; last H1 candle Friday 29th 21:00.
    assert.equal(isPartialMonth('2021-01', 'H1', at('2021-01-03T22:00:00Z'), at('2021-01-29T21:00:00Z'), later), false);
    assert.equal(isPartialMonth('2021-01', 'H1', at('2021-01-05T01:00:00Z'), at('2021-01-29T21:00:00Z'), later), true, 'starts after the margin');
    assert.equal(isPartialMonth('2021-01', 'H1', at('2021-01-03T22:00:00Z'), at('2021-01-26T12:00:00Z'), later), true, 'stops before the margin');
    // The last candle's close counts: a D1 candle opening on the 27th covers the 27th.
    assert.equal(isPartialMonth('2021-02', 'H4', at('2021-02-01T00:00:00Z'), at('2021-02-24T20:00:00Z'), later), false);
    assert.equal(isPartialMonth('2021-02', 'H4', at('2021-02-01T00:00:00Z'), at('2021-02-23T20:00:00Z'), later), true);
    // The current month, however complete so far.
    assert.equal(isPartialMonth('2029-12', 'M5', at('2029-12-01T00:00:00Z'), at('2029-12-31T23:55:00Z'), at('2029-12-31T23:59:00Z')), true);
    assert.equal(isPartialMonth('2029-12', 'M5', at('2029-12-01T00:00:00Z'), at('2029-12-31T23:55:00Z'), later), false);
  });

  it('GET /api/download_csv_by_path: 1 credit the first time, free afterwards (both routes), 402 when short', async () => {
    const user = await funded(t, 1);
    const first = await t.request('GET', `/api/download_csv_by_path/${PATH}?token=${user.key}`);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.equal(first.headers.get('content-disposition'), 'attachment; filename="EURUSD_H1_2023-01.csv"');
    assert.deepEqual([first.headers.get('x-credit-charged'), first.headers.get('x-credits-remaining')], ['1', '0']);
    const candles = readCandlesCsv(first.text).candles;
    assert.equal(candles.length, 523);
    // The first 2023 candle of the MetaTrader fixture, read at UTC+2, is the first of the month in UTC.
    const source = fixture('smc/EURUSD_15M.csv').toString('utf8').split('\n').find((l) => l.startsWith('2023.01'))!;
    const [day, time] = source.split(',')[0].split(' ');
    const brokerTime = Date.parse(`${day.replaceAll('.', '-')}T${time}+02:00`);
    assert.equal(candles.time[0], Math.floor(brokerTime / 3_600_000) * 3_600_000, 'the MetaTrader file read at UTC+2, resampled to H1');
    assert.ok(candles.extra.RSI_14, 'RSI_14 computed by the pipeline');
    const again = await t.request('GET', `/api/download_csv_by_path/${PATH}?token=${user.key}`);
    assert.deepEqual([again.status, again.headers.get('x-credit-charged')], [200, '0']);
    const owned = await t.request('GET', `/api/download_owned_csv_by_path/${PATH}?token=${user.key}`);
    assert.deepEqual([owned.status, owned.text], [200, first.text]);
    assert.equal(await balance(t, user.id), 0);
    const spends = (await ledgerRows(t, user.id)).filter((r) => r.kind === 'spend');
    assert.deepEqual(spends.map((r) => [r.reason, r.amount, r.reference]), [['csvDownload', -1, `csv:${user.id}:${PATH}`]]);
    const broke = await t.request('GET', `/api/download_csv_by_path/EURUSD/H1/EURUSD_H1_2023-02.csv?token=${user.key}`);
    assert.deepEqual([broke.status, broke.body.detail], [402, 'Crédits insuffisants : 1 crédit nécessaire, solde 0.']);
    const listed = await t.request('GET', '/api/list_csv_library?symbol=EURUSD&timeframe=H1', { key: user.key });
    assert.deepEqual(listed.body.files.filter((f: { owned: boolean }) => f.owned).map((f: { path: string }) => f.path), [PATH]);
  });

  it('parallel purchases of one file charge it once', async () => {
    const user = await funded(t, 3);
    const path = 'EU50/M5/EU50_M5_2006-01.csv';
    const answers = await Promise.all(Array.from({ length: 5 }, () => t.request('GET', `/api/download_csv_by_path/${path}`, { key: user.key })));
    assert.deepEqual(answers.map((a) => a.status), [200, 200, 200, 200, 200]);
    assert.equal(answers.filter((a) => a.headers.get('x-credit-charged') === '1').length, 1);
    assert.equal(await balance(t, user.id), 2);
  });

  it('refuses unknown files, unowned downloads and anonymous calls', async () => {
    const user = await funded(t, 2);
    const cases: [string, number, string][] = [
      ['/api/download_csv_by_path/EURUSD/H1/EURUSD_H1_2030-01.csv', 404, 'Fichier introuvable.'],
      ['/api/download_csv_by_path/EURUSD/D1/EURUSD_D1_2023-01.csv', 404, 'Fichier introuvable.'],
      ['/api/download_owned_csv_by_path/EURUSD/H1/EURUSD_H1_2023-03.csv', 404, 'Fichier introuvable dans tes CSV.'],
      ['/api/download_owned_csv_by_path/live/EURUSD_H1_20230101_to_20230105.csv', 404, 'Fichier introuvable dans tes CSV.'],
    ];
    for (const [path, status, detail] of cases) {
      const res = await t.request('GET', path, { key: user.key });
      assert.deepEqual([res.status, res.body.detail], [status, detail], path);
    }
    assert.equal(await balance(t, user.id), 2);
    assert.equal((await t.request('GET', `/api/download_csv_by_path/${PATH}`)).status, 401);
  });
});

describe(`extraction (${TEST_DIALECT})`, () => {
  it('GET /api/extract_to_output_live cuts a range into a private file for 1 credit; the same range again is free', async () => {
    const user = await funded(t, 2);
    const res = await t.request('GET', '/api/extract_to_output_live?symbol=EURUSD&timeframe=M30&start_date=2023-03-06&end_date=2023-03-10', { key: user.key });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.charged, res.body.credits_remaining], [true, 1]);
    const [file] = res.body.files;
    assert.deepEqual(
      [file.filename, file.path, file.relative_path, file.symbol, file.timeframe, file.start_date, file.end_date, file.source, file.label],
      ['EURUSD_M30_20230306_to_20230310.csv', 'live/EURUSD_M30_20230306_to_20230310.csv', 'live/EURUSD_M30_20230306_to_20230310.csv', 'EURUSD', 'M30', '2023-03-06', '2023-03-10', 'live', 'LIVE (privé)'],
    );
    const csv = await t.request('GET', `/api/download_owned_csv_by_path/${file.path}`, { key: user.key });
    assert.equal(csv.status, 200);
    const candles = readCandlesCsv(csv.text).candles;
    assert.equal(candles.length, file.rows);
    assert.ok(candles.time[0] >= Date.UTC(2023, 2, 6) && candles.time[candles.length - 1] < Date.UTC(2023, 2, 11));
    const m15 = readCandlesCsv(fixture('smc/EURUSD_15M.csv'), { utcOffset: '+02:00' }).candles;
    const halfHours = new Set([...m15.time].filter((x) => x >= Date.UTC(2023, 2, 6) && x < Date.UTC(2023, 2, 11)).map((x) => Math.floor(x / 1_800_000)));
    assert.equal(candles.length, halfHours.size, 'one M30 candle per half hour holding M15 candles');
    const again = await t.request('GET', '/api/extract_to_output_live?symbol=EURUSD&timeframe=M30&start_date=2023-03-06&end_date=2023-03-10', { key: user.key });
    assert.deepEqual([again.status, again.body.charged, again.body.credits_remaining], [200, false, 1]);
    const recent = await t.request('GET', '/api/my_recent_extractions', { key: user.key });
    assert.deepEqual(recent.body.files.map((f: { filename: string }) => f.filename), ['EURUSD_M30_20230306_to_20230310.csv']);
    const mine = await t.request('GET', '/api/user/csvs', { key: user.key });
    assert.deepEqual(mine.body.items.map((f: { kind: string; path: string }) => [f.kind, f.path]), [['extraction', file.path]]);
  });

  it('refuses bad requests with French sentences and charges nothing when it fails', async () => {
    const user = await funded(t, 1);
    const q = (params: string) => t.request('GET', `/api/extract_to_output_live?${params}`, { key: user.key });
    const cases: [string, number, string][] = [
      ['symbol=EURUSD&timeframe=H1&start_date=2023-01-01', 400, 'Renseigne paire, TF, dates.'],
      ['symbol=NOPE&timeframe=H1&start_date=2023-01-01&end_date=2023-01-02', 400, 'Symbole inconnu : « NOPE ».'],
      ['symbol=EURUSD&timeframe=D1&start_date=2023-01-01&end_date=2023-01-02', 400, 'Unité de temps non disponible pour l’extraction : « D1 » (M1, M5, M15, M30, H1, H4).'],
      ['symbol=EURUSD&timeframe=H1&start_date=2023-01-05&end_date=2023-01-02', 400, 'La date de début doit être ≤ à la date de fin.'],
      ['symbol=EURUSD&timeframe=H1&start_date=2026-01-10&end_date=2026-01-15', 400, 'Les données d’extraction sont disponibles jusqu’à 24 h en arrière : date de fin au plus tard le 2026-01-14.'],
      ['symbol=EURUSD&timeframe=M1&start_date=2025-12-01&end_date=2025-12-02', 400, 'Extraction M1 limitée aux 3 dernières semaines : date de début au plus tôt le 2025-12-25.'],
      ['symbol=EURUSD&timeframe=H1&start_date=2021-01-01&end_date=2023-01-31', 400, 'Période d’extraction trop longue (761 jours). Maximum : 366 jours.'],
      ['symbol=EURUSD&timeframe=M1&start_date=2026-01-01&end_date=2026-01-05', 404, 'Aucune donnée pour EURUSD M1 du 2026-01-01 au 2026-01-05.'],
      ['symbol=GBPUSD&timeframe=H1&start_date=2023-01-01&end_date=2023-01-05', 404, 'Aucune donnée pour GBPUSD H1 du 2023-01-01 au 2023-01-05.'],
    ];
    for (const [params, status, detail] of cases) {
      const res = await q(params);
      assert.deepEqual([res.status, res.body.detail], [status, detail], params);
    }
    assert.equal(await balance(t, user.id), 1);
    const ok = await q('symbol=EURUSD&timeframe=H4&start_date=2017-06-01&end_date=2017-06-30');
    assert.equal(ok.status, 200);
    const broke = await q('symbol=EURUSD&timeframe=H4&start_date=2017-07-01&end_date=2017-07-31');
    assert.deepEqual([broke.status, broke.body.detail], [402, 'Crédits insuffisants : 1 crédit nécessaire, solde 0.']);
    assert.deepEqual(await t.app.deps.storage.list(`extractions/${user.id}`), ['EURUSD_H4_20170601_to_20170630.csv'], 'the refused extraction left no file');
    assert.equal((await t.request('GET', '/api/extract_to_output_live?symbol=EURUSD&timeframe=H1&start_date=2023-01-01&end_date=2023-01-02')).status, 401);
  });

  it('extractions are private: user B can neither list nor download user A’s', async () => {
    const a = await funded(t, 1);
    const b = await funded(t, 1);
    const res = await t.request('GET', '/api/extract_to_output_live?symbol=EU50&timeframe=M5&start_date=2006-01-02&end_date=2006-01-06', { key: a.key });
    assert.equal(res.status, 200, res.text);
    const path = res.body.files[0].path;
    assert.deepEqual((await t.request('GET', '/api/my_recent_extractions', { key: b.key })).body.files, []);
    assert.deepEqual((await t.request('GET', '/api/user/csvs', { key: b.key })).body.items, []);
    for (const route of ['download_owned_csv_by_path', 'download_csv_by_path']) {
      const stolen = await t.request('GET', `/api/${route}/${path}`, { key: b.key });
      assert.equal(stolen.status, 404, route);
    }
    assert.equal(await balance(t, b.id), 1);
  });
});
