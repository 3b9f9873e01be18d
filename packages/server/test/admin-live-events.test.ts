import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Op } from 'sequelize';
import { register, useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { funded, makeAdmin, OFFICIAL_RUN, runBacktest } from './support/work.js';

const t = useTestApp({ library: true });

const CSV_PATH = 'EURUSD/H1/EURUSD_H1_2017-05.csv';

const eventsOf = (userId: number) => t.db.models.AppEvent.findAll({ where: { userId }, order: [['id', 'ASC']] });

describe(`the event log, fed by the product (${TEST_DIALECT})`, () => {
  it('records sign-ups, logins, daily activity, credits, backtests, purchases, unsubscriptions and deletions where they happen', async () => {
    const admin = await makeAdmin(t);
    const user = await register(t);
    const login = await t.request('POST', '/api/login', { json: { identifier: user.email, password: user.password } });
    assert.equal(login.status, 200);
    await t.request('POST', '/api/admin/add_credit', { key: admin.key, json: { user_id: user.id, amount: 6 } });
    await t.request('POST', '/api/admin/remove_credit', { key: admin.key, json: { user_id: user.id, amount: 1 } });
    const run = await runBacktest(t, user.key);
    assert.equal(run.status, 200, run.text);
    assert.equal((await t.request('GET', `/api/download_csv_by_path/${CSV_PATH}?token=${user.key}`)).status, 200);
    await t.app.services.ledger.grant(user.id, 12, 'purchase', { reference: `stripe:pi_live_${user.id}`, meta: { offer_id: 'CREDIT_10', amount_eur: 10, method: 'stripe', payment: `pay_live_${user.id}` } });
    const renew = new Date(t.clock.now().getTime() + 20 * 86400_000);
    await t.db.models.User.update({ plan: 'SUB_9', subscriptionRenewDate: renew, subscriptionAutoRenew: true }, { where: { id: user.id } });
    for (let i = 0; i < 2; i++) assert.equal((await t.request('POST', '/api/profile/unsubscribe', { key: user.key })).status, 200);
    assert.equal((await t.request('POST', '/api/user/delete_account', { key: user.key, json: { current_password: user.password } })).status, 200);

    const events = await eventsOf(user.id);
    const summary = events.map((e) => [e.kind, e.method, e.credits, e.amountCents]);
    assert.deepEqual(summary, [
      ['signup', null, null, null],
      ['active', null, null, null],
      ['login', 'password', null, null],
      ['credits_offered', 'admin', 6, null],
      ['credits_spent', 'admin', -1, null],
      ['backtest', null, -2, null],
      ['credits_spent', 'csvDownload', -1, null],
      ['purchase', 'stripe', 12, 1000],
      ['unsubscription', null, null, null],
      ['deletion', 'self', null, null],
    ]);
    const backtest = events.find((e) => e.kind === 'backtest')!;
    assert.deepEqual([backtest.symbol, backtest.timeframe, backtest.strategy, backtest.reference, backtest.label], [OFFICIAL_RUN.symbol, OFFICIAL_RUN.timeframe, OFFICIAL_RUN.strategy, run.body.run_id, run.body.folder]);
    assert.ok(Number.isInteger(backtest.durationMs) && backtest.durationMs! >= 0);
    const purchase = events.find((e) => e.kind === 'purchase')!;
    assert.deepEqual([purchase.label, purchase.reference], ['Pack 12 crédits', `payment:pay_live_${user.id}`]);
    for (const e of events) {
      assert.equal(e.day, e.occurredAt.toISOString().slice(0, 10));
      assert.equal(e.hour, e.occurredAt.getUTCHours());
      assert.equal(e.weekday, (e.occurredAt.getUTCDay() + 6) % 7);
    }
  });

  it('a failed run leaves no backtest event; a replayed reference is recorded once', async () => {
    const user = await funded(t, 4);
    const before = await t.db.models.AppEvent.count({ where: { userId: user.id, kind: 'backtest' } });
    const refused = await runBacktest(t, user.key, { start_date: '2019-01-01', end_date: '2019-01-31' });
    assert.equal(refused.status, 404);
    assert.equal(await t.db.models.AppEvent.count({ where: { userId: user.id, kind: 'backtest' } }), before);
    const event = { kind: 'failed_payment' as const, userId: user.id, amountCents: 500, method: 'paypal', category: 'payment_failed', reference: `payment:replay_${user.id}` };
    await t.app.services.events.record(event);
    await t.app.services.events.record(event);
    await Promise.all([t.app.services.events.record(event), t.app.services.events.record(event)]);
    assert.equal(await t.db.models.AppEvent.count({ where: { reference: `payment:replay_${user.id}` } }), 1);
  });

  it('rebuild_from_users gives back, after a reset, what the live log had (except what no table keeps)', async () => {
    const admin = await makeAdmin(t);
    const user = await funded(t, 5);
    assert.equal((await runBacktest(t, user.key)).status, 200);
    await t.app.services.ledger.grant(user.id, 25, 'purchase', { reference: `paypal:cap_${user.id}`, meta: { offer_id: 'CREDIT_20', amount_eur: 20, method: 'paypal', payment: `pay_rb_${user.id}` } });
    // A deleted account's runs go with it (docs/server.md "Deleting an account"): no table keeps
    // them for a rebuild, so its backtest events leave the live log too before the comparison.
    const deleted = (await t.db.models.User.findAll({ where: { deletedAt: { [Op.ne]: null } }, attributes: ['id'] })).map((u) => u.id);
    await t.db.models.AppEvent.destroy({ where: { kind: 'backtest', userId: deleted } });
    const overview = async () => (await t.request('GET', '/api/admin/metrics/overview?range=all', { key: admin.key })).body;
    const breakdowns = async () => {
      const out: Record<string, unknown> = {};
      for (const kind of ['sales_by_method', 'credits_by_method', 'backtests_by_strategy', 'top_customers', 'backtest_duration', 'backtests_by_symbol']) {
        out[kind] = (await t.request('GET', `/api/admin/metrics/breakdown?kind=${kind}&range=all`, { key: admin.key })).body.items;
      }
      // The flow's totals (the rows' days follow the tables' own timestamps, which in tests are
      // the machine's time while the app's clock is a manual one).
      const flow = (await t.request('GET', '/api/admin/metrics/breakdown?kind=credits_flow&range=all', { key: admin.key })).body.items as { in: number; out: number }[];
      out.credits_flow = flow.reduce((sum, d) => ({ in: sum.in + d.in, out: sum.out + d.out }), { in: 0, out: 0 });
      return out;
    };
    const live = await overview();
    const liveBreakdowns = await breakdowns();
    assert.ok(live.backtests_count >= 1 && live.total_sales_eur >= 30);

    const reset = await t.request('POST', '/api/admin/metrics/reset', { key: admin.key, json: {} });
    assert.equal(reset.status, 200);
    assert.equal((await overview()).backtests_count, 0);
    const rebuilt = await t.request('POST', '/api/admin/metrics/rebuild_from_users', { key: admin.key, json: {} });
    assert.equal(rebuilt.status, 200, rebuilt.text);
    assert.ok(rebuilt.body.added > 0);
    assert.match(rebuilt.body.detail, /^Statistiques reconstruites : \d+ événement\(s\)/);
    const after = await overview();
    // Unsubscriptions (and, until the payments table lands, failed payments) exist only in the log.
    const kept = { unsubscribed_users: 0, failed_payments: 0 };
    assert.deepEqual({ ...after, ...kept }, { ...live, ...kept });
    assert.deepEqual(await breakdowns(), liveBreakdowns);
    const again = await t.request('POST', '/api/admin/metrics/rebuild_from_users', { key: admin.key, json: {} });
    assert.equal(again.body.added, 0, 'a second rebuild adds nothing');
  });

  it('a rebuild maps the failed and refused attempts of the payments table, when there is one', async () => {
    const admin = await makeAdmin(t);
    const user = await funded(t, 0);
    const qi = t.db.sequelize.getQueryInterface();
    const tables = ((await qi.showAllTables()) as unknown[]).map((n) => (typeof n === 'string' ? n : (n as { tableName: string }).tableName));
    if (!tables.includes('payments')) {
      // The payments code's table (its migration is on another branch): the columns the rebuild reads.
      const { DataTypes } = await import('sequelize');
      await qi.createTable('payments', {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        reference: { type: DataTypes.STRING(64), allowNull: false },
        provider: { type: DataTypes.STRING(16), allowNull: false },
        kind: { type: DataTypes.STRING(16), allowNull: false },
        user_id: { type: DataTypes.INTEGER, allowNull: true },
        offer_id: { type: DataTypes.STRING(32), allowNull: true },
        amount_expected_cents: { type: DataTypes.INTEGER, allowNull: true },
        status: { type: DataTypes.STRING(16), allowNull: false },
        failure_kind: { type: DataTypes.STRING(32), allowNull: true },
        created_at: { type: DataTypes.DATE, allowNull: false },
        updated_at: { type: DataTypes.DATE, allowNull: false },
      });
    }
    const when = new Date('2026-01-14T08:00:00Z');
    const row = (reference: string, status: string, failureKind: string | null, userId: number | null) => ({
      reference, provider: 'stripe', kind: 'purchase', user_id: userId, offer_id: 'CREDIT_10', amount_expected_cents: 1000, status, failure_kind: failureKind, created_at: when, updated_at: when,
    });
    await qi.bulkInsert('payments', [row(`pay_f_${user.id}`, 'failed', 'payment_failed', user.id), row(`pay_r_${user.id}`, 'refused', 'bad_signature', null), row(`pay_p_${user.id}`, 'paid', null, user.id)]);
    const rebuilt = await t.request('POST', '/api/admin/metrics/rebuild_from_users', { key: admin.key, json: {} });
    assert.equal(rebuilt.status, 200, rebuilt.text);
    const failed = await t.db.models.AppEvent.findAll({ where: { kind: 'failed_payment', reference: [`payment:pay_f_${user.id}`, `payment:pay_r_${user.id}`, `payment:pay_p_${user.id}`] }, order: [['reference', 'ASC']] });
    assert.deepEqual(failed.map((e) => [e.reference, e.userId, e.method, e.category, e.amountCents, e.label, e.occurredAt.toISOString()]), [
      [`payment:pay_f_${user.id}`, user.id, 'stripe', 'payment_failed', 1000, 'Pack 12 crédits', when.toISOString()],
      [`payment:pay_r_${user.id}`, null, 'stripe', 'bad_signature', 1000, 'Pack 12 crédits', when.toISOString()],
    ]);
    assert.equal((await t.request('POST', '/api/admin/metrics/rebuild_from_users', { key: admin.key, json: {} })).body.added, 0);
  });

  it('the Backtests tab: every user\'s finished runs, and their workbooks', async () => {
    const admin = await makeAdmin(t);
    const user = await funded(t, 4);
    const run = await runBacktest(t, user.key, { sl_pips: 12 });
    assert.equal(run.status, 200, run.text);
    const summary = await t.request('GET', '/api/admin/stats/backtest_summary?limit=20', { key: admin.key });
    assert.equal(summary.status, 200);
    const item = summary.body.items.find((i: { run_id: string }) => i.run_id === run.body.run_id);
    assert.ok(item, 'the run is listed');
    assert.equal(item.folder, run.body.folder);
    assert.equal(item.user, user.username);
    assert.equal(item.period, `${OFFICIAL_RUN.start_date} → ${OFFICIAL_RUN.end_date}`);
    assert.equal(item.total, run.body.summary.trades);
    assert.deepEqual([item.tp1, item.tp2, item.sl], [run.body.summary.tp1, run.body.summary.tp2, run.body.summary.sl]);
    assert.equal(item.winrate_tp1, run.body.summary.winrate_tp1);
    assert.equal(item.params.sl_pips, 12);
    assert.equal(summary.body.total, await t.db.models.BacktestRun.count({ where: { status: 'done' } }));

    const expectXlsx = async (query: string) => {
      const res = await fetch(`${t.url}/api/admin/download_xlsx?${query}`, { headers: { 'x-api-key': admin.key } });
      assert.equal(res.status, 200, `${query}: ${await res.clone().text()}`);
      assert.match(res.headers.get('content-disposition') ?? '', new RegExp(`attachment; filename="${run.body.folder}\\.xlsx"`));
      const bytes = new Uint8Array(await res.arrayBuffer());
      assert.deepEqual([...bytes.slice(0, 2)], [0x50, 0x4b]);
    };
    await expectXlsx(`id=${item.id}`);
    await expectXlsx(`id=${run.body.run_id}`);
    await expectXlsx(`folder=${run.body.folder}&user_id=${user.id}`);
    await expectXlsx(`symbol=EURUSD&timeframe=M15&strategy=${OFFICIAL_RUN.strategy}&period=${encodeURIComponent(item.period)}&sl=12`);
    await expectXlsx(`symbol=eurusd&timeframe=m15&strategy=${OFFICIAL_RUN.strategy}&period=20230101-20230131&sl=12`);

    for (const [query, status] of [
      ['', 400],
      ['symbol=EURUSD&timeframe=M15&strategy=x', 400],
      ['symbol=EURUSD&timeframe=M15&strategy=x&period=2023-02-30_2023-03-01', 400],
      ['symbol=EURUSD&timeframe=M15&strategy=x&period=2023-01-01_2023-01-31&sl=-1', 400],
      ['symbol=EURUSD&timeframe=M15&strategy=x&period=2023-01-01_2023-01-31', 404],
      ['id=999999', 404],
      ['folder=../../etc', 404],
      ['symbol=EURUSD&symbol=GBPUSD', 400],
    ] as const) {
      const res = await t.request('GET', `/api/admin/download_xlsx?${query}`, { key: admin.key });
      assert.equal(res.status, status, `${query}: ${res.text}`);
      assert.equal(typeof res.body.detail, 'string');
    }
    const badPage = await t.request('GET', '/api/admin/stats/backtest_summary?limit=0', { key: admin.key });
    assert.equal(badPage.status, 400);
  });
});
