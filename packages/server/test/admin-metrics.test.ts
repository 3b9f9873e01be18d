import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { EventInput } from '../src/events/log.js';
import { register, useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { makeAdmin } from './support/work.js';

// The app's clock reads 2026-01-15T10:00:00Z (a Thursday): "today" for every range below, in UTC.
const t = useTestApp();
const at = (iso: string) => new Date(iso);

let admin: { key: string };
let u1: { id: number; username: string; email: string };
let u2: { id: number; username: string; email: string };
let u3: { id: number; username: string; email: string };
const GONE = 999_001;

const get = async (path: string) => {
  const res = await t.request('GET', path, { key: admin.key });
  assert.equal(res.status, 200, `${path}: ${res.text}`);
  return res.body;
};
const breakdown = async (kind: string, range: string) => (await get(`/api/admin/metrics/breakdown?kind=${kind}&${range}`)).items;

/** The events of the checks below: purchases, credits, backtests, sign-ups, deletions, failures, activity, at known instants. */
function events(): EventInput[] {
  const purchase = (userId: number, when: string, method: string, eur: number, credits: number, label: string): EventInput => ({ kind: 'purchase', userId, at: at(when), method, amountCents: eur * 100, credits, label });
  const backtest = (userId: number, when: string, symbol: string, timeframe: string, strategy: string, durationMs: number): EventInput => ({
    kind: 'backtest', userId, at: at(when), symbol, timeframe, strategy, durationMs, credits: -2, label: `${symbol}_${timeframe}_${strategy}`, meta: { period: '2025-01-01 → 2025-01-31' },
  });
  return [
    purchase(u1.id, '2026-01-15T09:30:00Z', 'stripe', 10, 12, 'Pack 12 crédits'),
    purchase(u2.id, '2026-01-14T23:59:59.999Z', 'paypal', 20, 25, 'Pack 25 crédits'),
    purchase(u1.id, '2026-01-09T00:00:00Z', 'stripe', 5, 5, 'Pack 5 crédits'),
    purchase(u3.id, '2026-01-08T23:59:59Z', 'crypto', 50, 75, 'Pack 75 crédits'),
    purchase(u2.id, '2025-12-17T00:00:00Z', 'stripe', 10, 12, 'Pack 12 crédits'),
    purchase(u1.id, '2025-12-16T23:59:59.999Z', 'paypal', 9, 10, 'Starter'),
    { kind: 'credits_offered', userId: u1.id, at: at('2026-01-15T08:00:00Z'), credits: 2, method: 'verification' },
    { kind: 'credits_offered', userId: u1.id, at: at('2026-01-15T00:00:00.000Z'), credits: 1, method: 'bonus' },
    { kind: 'credits_offered', userId: u2.id, at: at('2026-01-10T12:00:00Z'), credits: 3, method: 'admin' },
    { kind: 'credits_spent', userId: u1.id, at: at('2026-01-15T09:45:00Z'), credits: -1, method: 'csvDownload' },
    // Written at 23:30 in UTC-2 on the 14th: 01:30 UTC on the 15th, so it counts on the 15th.
    { kind: 'credits_spent', userId: u2.id, at: at('2026-01-14T23:30:00-02:00'), credits: -1, method: 'extraction' },
    backtest(u1.id, '2026-01-15T10:00:00Z', 'EURUSD', 'H1', 'fvg_pullback_multi', 800),
    backtest(u2.id, '2026-01-15T09:00:00Z', 'EURUSD', 'M15', 'fvg_pullback_multi', 1500),
    backtest(u1.id, '2026-01-12T14:00:00Z', 'GBPUSD', 'H1', 'ob_pullback_pure', 3000),
    backtest(u3.id, '2025-12-20T16:00:00Z', 'EURUSD', 'H4', 'englobante_entry', 45_000),
    { kind: 'signup', userId: u1.id, at: at('2026-01-15T08:00:00Z') },
    { kind: 'signup', userId: u2.id, at: at('2026-01-10T08:00:00Z') },
    { kind: 'signup', userId: u3.id, at: at('2025-12-01T08:00:00Z') },
    { kind: 'deletion', userId: GONE, at: at('2026-01-14T12:00:00Z'), method: 'self' },
    { kind: 'unsubscription', userId: u2.id, at: at('2026-01-13T12:00:00Z'), label: 'SUB_9' },
    { kind: 'failed_payment', userId: u1.id, at: at('2026-01-15T07:00:00Z'), method: 'stripe', category: 'payment_failed', amountCents: 1000, label: 'Pack 12 crédits' },
    { kind: 'failed_payment', userId: u2.id, at: at('2026-01-11T07:00:00Z'), method: 'paypal', category: 'capture_failed', amountCents: 2000, label: 'Pack 25 crédits' },
    { kind: 'failed_payment', userId: null, at: at('2026-01-15T06:00:00Z'), method: 'stripe', category: 'bad_signature' },
    // 5 € of the PayPal sale of the 14th refunded today: counted today, the sale stays on the 14th.
    { kind: 'refund', userId: u2.id, at: at('2026-01-15T09:50:00Z'), method: 'paypal', category: 'refund', amountCents: 500, label: 'Pack 25 crédits', reference: 'payment:pay_refunded', meta: { credits_reversed: 7 } },
    { kind: 'active', userId: u1.id, at: at('2026-01-15T08:00:00Z') },
    { kind: 'active', userId: u2.id, at: at('2026-01-15T08:00:00Z') },
    { kind: 'active', userId: u2.id, at: at('2026-01-14T08:00:00Z') },
    { kind: 'active', userId: u3.id, at: at('2025-12-20T08:00:00Z') },
    { kind: 'login', userId: u1.id, at: at('2026-01-13T08:00:00Z'), method: 'password' },
  ];
}

describe(`admin statistics over the event log (${TEST_DIALECT})`, () => {
  before(async () => {
    admin = await makeAdmin(t);
    [u1, u2, u3] = [await register(t), await register(t), await register(t)];
    const u4 = await register(t);
    const { User } = t.db.models;
    // Accounts as the ranges see them: created (and one deleted) at known instants.
    await User.update({ createdAt: at('2026-01-15T08:00:00Z') }, { where: { id: u1.id } });
    await User.update({ createdAt: at('2026-01-10T08:00:00Z') }, { where: { id: u2.id } });
    await User.update({ createdAt: at('2025-12-01T08:00:00Z'), lastSeenAt: at('2026-01-15T09:40:00Z') }, { where: { id: u3.id } });
    await User.update({ createdAt: at('2025-12-05T08:00:00Z'), deletedAt: at('2026-01-14T12:00:00Z') }, { where: { id: u4.id } });
    const reset = await t.request('POST', '/api/admin/metrics/reset', { key: admin.key, json: {} });
    assert.equal(reset.status, 200, reset.text);
    await t.app.services.events.recordMany(events());
  });

  it('overview: the twelve KPIs for day, week, month, all and custom ranges, edges included', async () => {
    const overview = (query: string) => get(`/api/admin/metrics/overview?${query}`);
    assert.deepEqual(await overview('range=day'), {
      range: 'day', start: '2026-01-15', end: '2026-01-15',
      total_sales_eur: 10, refunds_eur: 5, net_sales_eur: 5, total_credits_bought: 12, credits_offered: 3, backtests_count: 2,
      total_users: 3, new_users: 1, active_now: 2, deleted_users: 0, unsubscribed_users: 0, failed_payments: 2,
    });
    assert.deepEqual(await overview('range=week'), {
      range: 'week', start: '2026-01-09', end: '2026-01-15',
      total_sales_eur: 35, refunds_eur: 5, net_sales_eur: 30, total_credits_bought: 42, credits_offered: 6, backtests_count: 3,
      total_users: 3, new_users: 2, active_now: 2, deleted_users: 1, unsubscribed_users: 1, failed_payments: 3,
    });
    assert.deepEqual(await overview('range=month'), {
      range: 'month', start: '2025-12-17', end: '2026-01-15',
      total_sales_eur: 95, refunds_eur: 5, net_sales_eur: 90, total_credits_bought: 129, credits_offered: 6, backtests_count: 4,
      total_users: 3, new_users: 2, active_now: 2, deleted_users: 1, unsubscribed_users: 1, failed_payments: 3,
    });
    const all = await overview('range=all');
    assert.deepEqual([all.start, all.end, all.total_sales_eur, all.total_credits_bought, all.backtests_count, all.new_users], [null, '2026-01-15', 104, 139, 4, 3]);
    assert.deepEqual(await overview(''), await overview('range=month'), 'month is the default');

    // One day each: the last millisecond of the 14th is the 14th's; midnight of the 15th is the 15th's.
    const d14 = await overview('range=custom&start=2026-01-14&end=2026-01-14');
    assert.deepEqual([d14.total_sales_eur, d14.refunds_eur, d14.net_sales_eur, d14.total_credits_bought, d14.credits_offered, d14.deleted_users], [20, 0, 20, 25, 0, 1]);
    const d16 = await overview('range=custom&start=2025-12-16&end=2025-12-16');
    assert.deepEqual([d16.total_sales_eur, d16.new_users], [9, 0]);
    assert.equal((await overview('range=custom&start=2025-12-17&end=2026-01-15')).total_sales_eur, 95);
    assert.equal((await overview('range=custom&start=2025-12-18&end=2026-01-14')).total_sales_eur, 75);
    // Accounts at the end of a range: u4 (deleted on the 14th) still counts for a range ending on the 13th.
    assert.equal((await overview('range=custom&start=2026-01-01&end=2026-01-13')).total_users, 3, 'u2, u3 and u4 existed on the 13th');
    assert.equal((await overview('range=custom&start=2025-11-01&end=2025-11-30')).total_users, 0);
  });

  it('breakdowns: counts and sums computed by the database, every kind', async () => {
    const week = 'range=week';
    const month = 'range=month';
    assert.deepEqual(await breakdown('sales_by_method', week), [
      { method: 'paypal', count: 1, total_eur: 20, refunds_eur: 5, net_eur: 15 },
      { method: 'stripe', count: 2, total_eur: 15, refunds_eur: 0, net_eur: 15 },
    ]);
    // A refund in a range without its sale: the method is listed, its net negative.
    assert.deepEqual(await breakdown('sales_by_method', 'range=day'), [
      { method: 'stripe', count: 1, total_eur: 10, refunds_eur: 0, net_eur: 10 },
      { method: 'paypal', count: 0, total_eur: 0, refunds_eur: 5, net_eur: -5 },
    ]);
    assert.deepEqual(await breakdown('credits_by_method', week), [
      { method: 'paypal', source: 'achat', count: 1, credits: 25 },
      { method: 'stripe', source: 'achat', count: 2, credits: 17 },
      { method: 'admin', source: 'offert', count: 1, credits: 3 },
      { method: 'verification', source: 'offert', count: 1, credits: 2 },
      { method: 'bonus', source: 'offert', count: 1, credits: 1 },
    ]);
    assert.deepEqual(await breakdown('revenue_by_day', week), [
      { x: '2026-01-09', y: 5 }, { x: '2026-01-10', y: 0 }, { x: '2026-01-11', y: 0 }, { x: '2026-01-12', y: 0 },
      { x: '2026-01-13', y: 0 }, { x: '2026-01-14', y: 20 }, { x: '2026-01-15', y: 10 },
    ]);
    const byHour = await breakdown('revenue_by_hour', week);
    assert.equal(byHour.length, 24);
    assert.deepEqual(byHour.filter((h: { total_eur: number }) => h.total_eur > 0), [{ hour: 0, total_eur: 5 }, { hour: 9, total_eur: 10 }, { hour: 23, total_eur: 20 }]);
    assert.deepEqual(await breakdown('backtests_by_strategy', month), [
      { key: 'fvg_pullback_multi', count: 2 }, { key: 'englobante_entry', count: 1 }, { key: 'ob_pullback_pure', count: 1 },
    ]);
    assert.deepEqual(await breakdown('backtests_by_symbol', month), [{ key: 'EURUSD', count: 3 }, { key: 'GBPUSD', count: 1 }]);
    assert.deepEqual(await breakdown('backtests_by_timeframe', month), [{ key: 'H1', count: 2 }, { key: 'H4', count: 1 }, { key: 'M15', count: 1 }]);

    const heatmap = await breakdown('heatmap', month);
    assert.deepEqual(heatmap.map((d: { label: string }) => d.label), ['Lun', 'Mar', 'Mer', 'Jeu', 'Ven', 'Sam', 'Dim']);
    const cells = heatmap.flatMap((d: { label: string; hours: number[] }) => d.hours.map((n, hour) => (n ? `${d.label} ${hour}h:${n}` : null)).filter(Boolean));
    assert.deepEqual(cells, ['Lun 14h:1', 'Jeu 9h:1', 'Jeu 10h:1', 'Sam 16h:1']);

    assert.deepEqual(await breakdown('backtest_duration', month), [
      { bucket: '< 0,5 s', count: 0 }, { bucket: '0,5–1 s', count: 1 }, { bucket: '1–2 s', count: 1 }, { bucket: '2–5 s', count: 1 },
      { bucket: '5–10 s', count: 0 }, { bucket: '10–30 s', count: 0 }, { bucket: '≥ 30 s', count: 1 },
    ]);
    assert.deepEqual(await breakdown('credits_flow', 'range=day'), [{ day: '2026-01-15', in: 15, out: 6, net: 9 }]);
    assert.deepEqual(await breakdown('credits_flow', 'range=custom&start=2026-01-14&end=2026-01-14'), [{ day: '2026-01-14', in: 25, out: 0, net: 25 }]);
    assert.deepEqual(await breakdown('active_users_daily', week), [
      { x: '2026-01-09', y: 1 }, { x: '2026-01-10', y: 1 }, { x: '2026-01-11', y: 0 }, { x: '2026-01-12', y: 1 },
      { x: '2026-01-13', y: 1 }, { x: '2026-01-14', y: 1 }, { x: '2026-01-15', y: 2 },
    ]);
    assert.deepEqual(await breakdown('dau_wau_mau', month), [{ metric: 'DAU', count: 2 }, { metric: 'WAU', count: 2 }, { metric: 'MAU', count: 3 }]);
    assert.deepEqual(await breakdown('top_customers', month), [
      { user: u3.username, user_id: u3.id, orders: 1, sales_eur: 50, credits: 75 },
      { user: u2.username, user_id: u2.id, orders: 2, sales_eur: 30, credits: 37 },
      { user: u1.username, user_id: u1.id, orders: 2, sales_eur: 15, credits: 17 },
    ]);
    assert.deepEqual((await get('/api/admin/metrics/breakdown?kind=top_customers&range=month&limit=1')).items.map((r: { user_id: number }) => r.user_id), [u3.id]);
    assert.deepEqual(await breakdown('failed_payments_by_kind', week), [
      { kind: 'bad_signature', count: 1, total_eur: 0 },
      { kind: 'capture_failed', count: 1, total_eur: 20 },
      { kind: 'payment_failed', count: 1, total_eur: 10 },
    ]);
    // `all` series start at the first day that has a value.
    const allDays = await breakdown('revenue_by_day', 'range=all');
    assert.deepEqual([allDays[0], allDays.at(-1)], [{ x: '2025-12-16', y: 9 }, { x: '2026-01-15', y: 10 }]);
  });

  it('details: the rows behind each KPI, newest first, paged; the heatmap drill-down', async () => {
    const sales = await get('/api/admin/metrics/details?kpi=total_sales_eur&range=week');
    assert.equal(sales.total, 3);
    assert.deepEqual(sales.rows.map((r: Record<string, unknown>) => [r.date, r.user, r.label, r.method, r.amount_eur]), [
      ['2026-01-15T09:30:00.000Z', u1.username, 'Pack 12 crédits', 'stripe', 10],
      ['2026-01-14T23:59:59.999Z', u2.username, 'Pack 25 crédits', 'paypal', 20],
      ['2026-01-09T00:00:00.000Z', u1.username, 'Pack 5 crédits', 'stripe', 5],
    ]);
    assert.deepEqual(await get('/api/admin/metrics/details/sales?range=week'), { ...sales, kpi: 'total_sales_eur' });
    const page = await get('/api/admin/metrics/details?kpi=sales&range=week&limit=1&offset=1');
    assert.deepEqual([page.total, page.rows.length, page.rows[0].amount_eur, page.limit, page.offset], [3, 1, 20, 1, 1]);

    const offered = await get('/api/admin/metrics/details/offered?range=week');
    assert.deepEqual(offered.rows.map((r: Record<string, unknown>) => [r.user, r.label, r.credits]), [
      [u1.username, 'Crédits offerts (adresse e-mail vérifiée)', 2],
      [u1.username, 'Crédits bonus', 1],
      [u2.username, 'Ajustement par un administrateur', 3],
    ]);
    const bought = await get('/api/admin/metrics/details?kpi=total_credits_bought&range=day');
    assert.deepEqual(bought.rows.map((r: Record<string, unknown>) => [r.label, r.credits]), [['Pack 12 crédits', 12]]);

    const backtests = await get('/api/admin/metrics/details?kpi=backtests_count&range=month');
    assert.deepEqual(backtests.rows.map((r: Record<string, unknown>) => [r.user, r.symbol, r.timeframe, r.strategy, r.period]), [
      [u1.username, 'EURUSD', 'H1', 'fvg_pullback_multi', '2025-01-01 → 2025-01-31'],
      [u2.username, 'EURUSD', 'M15', 'fvg_pullback_multi', '2025-01-01 → 2025-01-31'],
      [u1.username, 'GBPUSD', 'H1', 'ob_pullback_pure', '2025-01-01 → 2025-01-31'],
      [u3.username, 'EURUSD', 'H4', 'englobante_entry', '2025-01-01 → 2025-01-31'],
    ]);
    const cell = await get('/api/admin/metrics/details?kpi=backtests&range=month&weekday=3&hour=10');
    assert.deepEqual(cell.rows.map((r: { user: string }) => r.user), [u1.username]);

    const newUsers = await get('/api/admin/metrics/details?kpi=new_users&range=week');
    assert.deepEqual(newUsers.columns, ['date', 'email', 'username', 'plan', 'credits', 'last_seen']);
    assert.deepEqual(newUsers.rows.map((r: Record<string, unknown>) => [r.email, r.username, r.plan]), [[u1.email, u1.username, 'free'], [u2.email, u2.username, 'free']]);
    const everyone = await get('/api/admin/metrics/details/users_all');
    assert.deepEqual(everyone.rows.map((r: { user_id: number }) => r.user_id).sort(), [u1.id, u2.id, u3.id].sort());
    assert.ok(everyone.rows.every((r: { last_seen: string | null }) => r.last_seen !== null));
    const activeNow = await get('/api/admin/metrics/details?kpi=active_now');
    assert.deepEqual(activeNow.rows.map((r: { user_id: number }) => r.user_id).sort(), [u1.id, u2.id].sort());

    const deleted = await get('/api/admin/metrics/details?kpi=deleted_users&range=week');
    assert.deepEqual(deleted.rows, [{ date: '2026-01-14T12:00:00.000Z', user_id: GONE, event: 'deletion', by: 'self' }]);
    const unsubscribed = await get('/api/admin/metrics/details?kpi=unsubscribed_users&range=week');
    assert.deepEqual(unsubscribed.rows.map((r: Record<string, unknown>) => [r.user_id, r.event]), [[u2.id, 'unsubscription']]);
    const refunds = await get('/api/admin/metrics/details?kpi=refunds&range=week');
    assert.deepEqual([refunds.kpi, refunds.columns], ['refunds_eur', ['date', 'user', 'label', 'method', 'kind', 'amount_eur']]);
    assert.deepEqual(refunds.rows, [{ date: '2026-01-15T09:50:00.000Z', user: u2.username, user_id: u2.id, label: 'Pack 25 crédits', method: 'paypal', kind: 'refund', amount_eur: 5, credits: 7 }]);
    const failed = await get('/api/admin/metrics/details?kpi=failed_payments&range=week');
    assert.deepEqual(failed.rows.map((r: Record<string, unknown>) => [r.user, r.method, r.kind, r.amount_eur]), [
      [u1.username, 'stripe', 'payment_failed', 10],
      [null, 'stripe', 'bad_signature', null],
      [u2.username, 'paypal', 'capture_failed', 20],
    ]);
  });

  it('refuses bad ranges, kinds, KPIs and numbers with a French 400', async () => {
    const cases: [string, RegExp][] = [
      ['/api/admin/metrics/overview?range=year', /^Période inconnue : « year »/],
      ['/api/admin/metrics/overview?range=custom', /^Période personnalisée : renseigne start et end/],
      ['/api/admin/metrics/overview?range=custom&start=2026-02-30&end=2026-03-01', /^Date invalide pour start : « 2026-02-30 »/],
      ['/api/admin/metrics/overview?range=custom&start=2026-01-10&end=2026-01-09', /^Période invalide : la date de début doit précéder la date de fin\.$/],
      ['/api/admin/metrics/overview?range=custom&start=20260101&end=2026-01-09', /^Date invalide pour start/],
      ['/api/admin/metrics/overview?range=day&range=week', /une seule valeur/],
      ['/api/admin/metrics/breakdown?range=day', /^Renseigne la répartition voulue \(kind\)\.$/],
      ['/api/admin/metrics/breakdown?kind=revenue&range=day', /^Répartition inconnue : « revenue » \(sales_by_method,/],
      ['/api/admin/metrics/breakdown?kind=top_customers&limit=0', /^Nombre de clients invalide/],
      ['/api/admin/metrics/details?range=day', /^Renseigne l'indicateur voulu \(kpi\)\.$/],
      ['/api/admin/metrics/details?kpi=profit', /^Indicateur inconnu : « profit »/],
      ['/api/admin/metrics/details?kpi=backtests&weekday=7', /^Jour invalide/],
      ['/api/admin/metrics/details?kpi=backtests&hour=24', /^Heure invalide/],
      ['/api/admin/metrics/details?kpi=backtests&hour=1e3', /^Heure invalide/],
      ['/api/admin/metrics/details/sales?limit=1001', /^Pagination invalide/],
    ];
    for (const [path, detail] of cases) {
      const res = await t.request('GET', path, { key: admin.key });
      assert.equal(res.status, 400, `${path}: ${res.text}`);
      assert.match(res.body.detail, detail, path);
    }
  });

  it('reset empties the log; global_stats reads the tables and does not move', async () => {
    const stats = await get('/api/admin/global_stats');
    assert.equal(stats.source, 'tables');
    assert.equal(stats.total_users, 3);
    assert.equal(stats.deleted_users, 1);
    const res = await t.request('POST', '/api/admin/metrics/reset', { key: admin.key, json: {} });
    assert.equal(res.status, 200);
    assert.ok(res.body.deleted >= events().length);
    assert.equal(await t.db.models.AppEvent.count(), 0);
    const overview = await get('/api/admin/metrics/overview?range=all');
    assert.deepEqual([overview.total_sales_eur, overview.backtests_count, overview.new_users, overview.total_users], [0, 0, 0, 3]);
    assert.deepEqual(await get('/api/admin/global_stats'), stats);
    await t.app.services.events.recordMany(events());
  });
});
