// The listings of a user's runs read plain rows of the columns they show (docs/server.md
// "Backtests, results and credits"): the answers must be what the model objects and the stored
// summaries gave, on both databases.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RESULT_SORTS } from '../src/results/listing.js';
import { parseSummary, slRateOf } from '../src/results/summary.js';
import { startTestApp, type TestApp } from './support/app.js';
import { SQLITE_PASS_ONLY, TEST_DIALECT, openTestDatabase, type TestDatabase } from './support/db.js';
import { funded, runBacktest } from './support/work.js';

describe('slRateOf', { skip: SQLITE_PASS_ONLY }, () => {
  it('gives back losses / resolved from the win rate, to the bit, for every count up to 3,000', () => {
    for (let resolved = 1; resolved <= 3000; resolved++) {
      for (let wins = 0; wins <= resolved; wins++) {
        const got = slRateOf(resolved, wins / resolved);
        if (!Object.is(got, (resolved - wins) / resolved)) assert.fail(`${wins} wins of ${resolved}: ${got}`);
      }
    }
    assert.equal(slRateOf(0, null), null);
    assert.equal(slRateOf(12, null), null);
  });
});

describe(`the user's runs listed from plain rows (${TEST_DIALECT})`, () => {
  let tdb: TestDatabase;
  let t: TestApp;
  let trader: Awaited<ReturnType<typeof funded>>;

  before(async () => {
    tdb = await openTestDatabase();
    t = await startTestApp(tdb.db, { library: true });
    trader = await funded(t, 20);
    for (const strategy of ['fvg_impulsive', 'ob_pullback_pure', 'ob_pullback_gap_rsi']) {
      const res = await runBacktest(t, trader.key, { strategy });
      assert.equal(res.status, 200, res.text);
    }
    // An extra row without a verdict (no resolved trade), as a run with no trade leaves.
    const { BacktestRun } = t.db.models;
    const { id: _id, ...last } = (await BacktestRun.findOne({ where: { userId: trader.id }, order: [['id', 'DESC']], raw: true }))!;
    await BacktestRun.create({ ...last, runId: 'no-verdict', folder: `${last.folder}_9`, trades: 0, resolved: 0, winrateTp1: null, winrateTp2: null, summary: null });
  });
  after(async () => {
    await t.close();
    await tdb.drop();
  });

  it('GET /api/user/backtests: every field as the stored run and its summary give it', async () => {
    const res = await t.request('GET', '/api/user/backtests', { key: trader.key });
    assert.equal(res.status, 200);
    const runs = await t.db.models.BacktestRun.findAll({ where: { userId: trader.id, status: 'done' }, order: [['id', 'DESC']] });
    assert.equal(res.body.total, 4);
    assert.deepEqual(res.body.items.map((i: { id: number }) => i.id), runs.map((r) => r.id));
    for (const [i, run] of runs.entries()) {
      const item = res.body.items[i];
      const summary = parseSummary(run.summary);
      assert.equal(item.sl_rate, summary ? summary.global.sl_rate : null, run.folder);
      assert.equal(item.created_at, run.createdAt.toISOString());
      assert.deepEqual(
        [item.folder, item.run_id, item.symbol, item.timeframe, item.strategy, item.display_name, item.source, item.start_date, item.end_date],
        [run.folder, run.runId, run.symbol, run.timeframe, run.strategy, run.strategyLabel, run.source, run.startDate, run.endDate],
      );
      assert.deepEqual(
        [item.winrate_tp1, item.winrate_tp2, item.trades, item.resolved, item.sl_mode, item.sl_pips, item.tp1_pips, item.tp2_pips, item.user_strategy_id],
        [run.winrateTp1, run.winrateTp2, run.trades, run.resolved, run.slMode, run.slPips, run.tp1Pips, run.tp2Pips, run.userStrategyId],
      );
      assert.equal(item.xlsx_filename, `${run.folder}.xlsx`);
    }
    assert.ok(res.body.items.some((i: { sl_rate: number | null }) => typeof i.sl_rate === 'number' && i.sl_rate > 0));
  });

  it('GET /api/compare/options and /api/list_output_backtest_files list the same runs, dates as ISO text', async () => {
    const runs = await t.db.models.BacktestRun.findAll({ where: { userId: trader.id, status: 'done' }, order: [['id', 'DESC']] });
    const options = await t.request('GET', '/api/compare/options', { key: trader.key });
    assert.equal(options.status, 200);
    assert.deepEqual(options.body.items.map((i: { id: number; label: string }) => [i.id, i.label]), runs.map((r) => [r.id, `${r.symbol} ${r.timeframe} · ${r.strategyLabel} · ${r.startDate} → ${r.endDate}`]));
    const files = await t.request('GET', '/api/list_output_backtest_files', { key: trader.key });
    assert.equal(files.status, 200);
    assert.deepEqual(files.body.files.map((f: { folder: string; created_at: string }) => [f.folder, f.created_at]), runs.map((r) => [r.folder, r.createdAt.toISOString()]));
  });

  it('pages in each of the dashboard’s orders: pages put end to end are the whole list in that order', async () => {
    // Ties on every sorted figure, other pairs and a second user's runs, which never show.
    const { BacktestRun } = t.db.models;
    const { id: _id, ...model } = (await BacktestRun.findOne({ where: { userId: trader.id }, order: [['id', 'ASC']], raw: true }))!;
    const other = await funded(t, 0);
    const rows = [
      { symbol: 'GBPUSD', winrateTp1: 0.5, trades: 40 },
      { symbol: 'AUDUSD', winrateTp1: 0.5, trades: 40 },
      { symbol: 'AUDUSD', timeframe: 'H1', winrateTp1: 0.75, trades: 12 },
      { symbol: 'XAUUSD', winrateTp1: null, resolved: 0, trades: 3 },
      { symbol: 'EURUSD', winrateTp1: 0.5, trades: 12, userId: other.id },
    ];
    for (const [i, row] of rows.entries()) await BacktestRun.create({ ...model, userId: trader.id, runId: `page-${i}`, folder: `${model.folder}_${20 + i}`, ...row });
    const whole = (await t.request('GET', '/api/user/backtests', { key: trader.key })).body.items as Array<{ id: number; symbol: string; timeframe: string; display_name: string; winrate_tp1: number | null; trades: number }>;
    assert.equal(whole.length, 8);
    const byId = (a: { id: number }, b: { id: number }) => b.id - a.id;
    const noVerdictLast = (a: { winrate_tp1: number | null }, b: { winrate_tp1: number | null }) => Number(a.winrate_tp1 === null) - Number(b.winrate_tp1 === null);
    const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const expected: Record<string, (a: (typeof whole)[number], b: (typeof whole)[number]) => number> = {
      newest: byId,
      'winrate-desc': (a, b) => noVerdictLast(a, b) || (b.winrate_tp1 ?? 0) - (a.winrate_tp1 ?? 0) || byId(a, b),
      'winrate-asc': (a, b) => noVerdictLast(a, b) || (a.winrate_tp1 ?? 0) - (b.winrate_tp1 ?? 0) || byId(a, b),
      'trades-desc': (a, b) => b.trades - a.trades || byId(a, b),
      'trades-asc': (a, b) => a.trades - b.trades || byId(a, b),
      'pair-az': (a, b) => text(a.symbol, b.symbol) || text(a.timeframe, b.timeframe) || text(a.display_name, b.display_name) || byId(a, b),
    };
    assert.deepEqual(Object.keys(expected), [...RESULT_SORTS]);
    for (const sort of RESULT_SORTS) {
      const seen: number[] = [];
      for (let offset = 0; offset < 10; offset += 3) {
        const page = await t.request('GET', `/api/user/backtests?sort=${sort}&limit=3&offset=${offset}`, { key: trader.key });
        assert.equal(page.status, 200, page.text);
        assert.equal(page.body.total, 8, sort);
        assert.ok(page.body.items.length <= 3);
        seen.push(...page.body.items.map((i: { id: number }) => i.id));
      }
      assert.deepEqual(seen, [...whole].sort(expected[sort]).map((i) => i.id), sort);
    }
    const sorted = await t.request('GET', '/api/user/backtests?sort=trades-asc', { key: trader.key });
    assert.deepEqual([sorted.body.total, sorted.body.items.length, sorted.body.items[0].trades], [8, 8, 0], 'a sort without a page: the whole list');
  });

  it('refuses a bad page or sort with its sentence (400), never a 500', async () => {
    const cases: Array<[string, string]> = [
      ['sort=win', 'Tri inconnu : « win » (newest, winrate-desc, winrate-asc, trades-desc, trades-asc, pair-az).'],
      ['limit=0', 'Pagination invalide : offset ≥ 0, limit de 1 à 200.'],
      ['limit=201', 'Pagination invalide : offset ≥ 0, limit de 1 à 200.'],
      ['limit=9&offset=-1', 'Pagination invalide : offset ≥ 0, limit de 1 à 200.'],
      ['limit=1e3', 'Pagination invalide : offset ≥ 0, limit de 1 à 200.'],
      ['offset=abc', 'Pagination invalide : offset ≥ 0, limit de 1 à 200.'],
      ['sort=newest&sort=pair-az', 'Champ « sort » : une seule valeur attendue (pas une liste ni un objet).'],
    ];
    for (const [query, detail] of cases) {
      const res = await t.request('GET', `/api/user/backtests?${query}`, { key: trader.key });
      assert.deepEqual([res.status, res.body.detail], [400, detail], query);
    }
    assert.equal((await t.request('GET', '/api/user/backtests?limit=9')).status, 401);
  });
});
