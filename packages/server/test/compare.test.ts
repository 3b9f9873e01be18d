import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readWorkbookSheet } from '@bt/core/report';
import { startTestApp, type TestApp } from './support/app.js';
import { TEST_DIALECT, openTestDatabase, type TestDatabase } from './support/db.js';
import { funded, runBacktest } from './support/work.js';

let tdb: TestDatabase;
let t: TestApp;
let user: Awaited<ReturnType<typeof funded>>;
let ids: number[];

before(async () => {
  tdb = await openTestDatabase();
  t = await startTestApp(tdb.db, { library: true });
  user = await funded(t, 10);
  const runs = [];
  for (const strategy of ['fvg_pullback_multi', 'ob_pullback_pure', 'englobante_entry', 'fvg_impulsive', 'englobante_entry_rsi']) {
    const res = await runBacktest(t, user.key, { strategy });
    assert.equal(res.status, 200, res.text);
    runs.push(res.body);
  }
  ids = (await t.request('GET', '/api/compare/options', { key: user.key })).body.items.map((i: { id: number }) => i.id);
});
after(async () => {
  await t.close();
  await tdb.drop();
});

const data = (key: string, body: unknown) => t.request('POST', '/api/compare/data', { key, json: body });

describe(`comparator (${TEST_DIALECT})`, () => {
  it('GET /api/compare/options lists the user’s analyses with the fields the list shows', async () => {
    const res = await t.request('GET', '/api/compare/options', { key: user.key });
    assert.equal(res.status, 200);
    assert.equal(res.body.items.length, 5);
    const item = res.body.items.at(-1);
    assert.deepEqual([item.pair, item.timeframe, item.strategy, item.period], ['EURUSD', 'M15', 'fvg_pullback_multi', '2023-01-01 → 2023-01-31']);
    assert.equal(item.trades_count, item.trades);
    assert.equal(item.winrate_tp1, item.tp1_winrate);
    assert.equal(item.label, 'EURUSD M15 · FVG pullback multi · 2023-01-01 → 2023-01-31');
    const other = await funded(t, 0);
    assert.deepEqual((await t.request('GET', '/api/compare/options', { key: other.key })).body.items, []);
  });

  it('POST /api/compare/data: every metric, values equal to the workbooks’ own figures', async () => {
    const chosen = ids.slice(0, 4);
    const hour = await data(user.key, { analysis_ids: chosen, metric: 'hour', normalize: false });
    assert.equal(hour.status, 200);
    assert.equal(hour.body.buckets.length, 24);
    assert.deepEqual([hour.body.buckets[0], hour.body.buckets[23]], ['00h', '23h']);
    assert.deepEqual(hour.body.series.map((s: { analysis_id: number }) => s.analysis_id), chosen);
    assert.deepEqual([hour.body.value_type, hour.body.precision], ['percentage', 2]);
    // Each value is the TP1 win rate of that hour in the run's own Par_Heure sheet.
    const run = await t.db.models.BacktestRun.findByPk(chosen[0]);
    const sheet = await readWorkbookSheet(await t.app.deps.storage.read(run!.xlsxPath!), 'Par_Heure', { limit: 24 });
    const column = sheet.headers.indexOf('Winrate TP1');
    assert.deepEqual(hour.body.series[0].values, sheet.rows.map((r) => r[column]));

    const session = await data(user.key, { analysis_ids: chosen, metric: 'session' });
    assert.deepEqual(session.body.buckets, ['Asie', 'Londres', 'Londres/New York', 'New York', 'Hors session']);
    const day = await data(user.key, { analysis_ids: chosen, metric: 'day' });
    assert.deepEqual(day.body.buckets, ['Lun', 'Mar', 'Mer', 'Jeu', 'Ven', 'Sam', 'Dim']);
    const shares = await data(user.key, { analysis_ids: chosen, metric: 'day', normalize: true });
    for (const s of shares.body.series) assert.ok(Math.abs(s.values.reduce((a: number, b: number | null) => a + (b ?? 0), 0) - 1) < 1e-9, 'normalize: shares of the trades');
    const count = await data(user.key, { analysis_ids: chosen, metric: 'trades_count' });
    assert.deepEqual([count.body.value_type, count.body.precision, count.body.buckets], ['count', 0, ['Trades']]);
    assert.deepEqual(count.body.series.map((s: { values: number[] }) => s.values[0]), await Promise.all(chosen.map(async (id) => (await t.db.models.BacktestRun.findByPk(id))!.trades)));
    for (const metric of ['winrate_tp1', 'winrate_tp2', 'sl_rate']) {
      const res = await data(user.key, { analysis_ids: chosen, metric });
      assert.equal(res.status, 200, metric);
      assert.equal(res.body.series[0].values.length, 1);
      for (const s of res.body.series) assert.ok(s.values[0] === null || (s.values[0] >= 0 && s.values[0] <= 1));
    }
  });

  it('refuses 0 or 5 analyses, an unknown metric, and another user’s analyses', async () => {
    const cases: [unknown, number, string][] = [
      [{ analysis_ids: [], metric: 'hour' }, 400, 'Sélectionne 1 à 4 analyses.'],
      [{ analysis_ids: ids.slice(0, 5), metric: 'hour' }, 400, 'Sélectionne 1 à 4 analyses.'],
      [{ analysis_ids: [ids[0]], metric: 'profit' }, 400, 'Métrique inconnue : « profit » (session, day, hour, winrate_tp1, winrate_tp2, trades_count, sl_rate).'],
      [{ analysis_ids: ['abc'], metric: 'hour' }, 404, 'Analyse introuvable.'],
      [{ analysis_ids: [ids[0], 999999], metric: 'hour' }, 404, 'Analyse introuvable.'],
    ];
    for (const [body, status, detail] of cases) {
      const res = await data(user.key, body);
      assert.deepEqual([res.status, res.body.detail], [status, detail], JSON.stringify(body));
    }
    const other = await funded(t, 0);
    const stolen = await data(other.key, { analysis_ids: [ids[0]], metric: 'hour' });
    assert.deepEqual([stolen.status, stolen.body.detail], [404, 'Analyse introuvable.']);
    assert.equal((await t.request('GET', '/api/compare/options')).status, 401);
  });
});
