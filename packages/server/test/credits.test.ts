import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { CREDIT_COSTS } from '@bt/core/catalogue';
import { CreditLedger, InsufficientCreditsError, LedgerError } from '../src/credits/index.js';
import { chargeRun } from '../src/backtests/charge.js';
import { register, useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { ledgerRows as ledgerRowsOf } from './support/work.js';

const t = useTestApp();
let ledger: CreditLedger;
const ledgerRows = (userId: number) => ledgerRowsOf(t, userId);

/** The balance always equals the sum of the ledger. */
async function assertConsistent(userId: number) {
  const rows = await ledgerRows(userId);
  const sum = rows.reduce((s, r) => s + r.amount, 0);
  assert.equal(await ledger.balance(userId), sum);
  if (rows.length) assert.equal(rows.at(-1)!.balanceAfter, sum);
}

describe(`credit ledger (${TEST_DIALECT})`, () => {
  // Inside the suite: the file's app is started by then.
  before(() => {
    ledger = t.app.services.ledger;
  });

  it('grants, spends at the catalogue price, refunds once; every change has its row', async () => {
    const { id } = await register(t);
    const granted = await ledger.grant(id, 5, 'admin');
    assert.equal(granted.balance, 5);
    assert.equal(granted.applied, true);
    const spent = await ledger.spend(id, 'backtest', { reference: `run-${id}-1`, meta: { symbol: 'EURUSD' } });
    assert.equal(spent.balance, 5 - CREDIT_COSTS.backtest);
    assert.equal(spent.entry.amount, -CREDIT_COSTS.backtest);
    assert.equal(spent.entry.reason, 'backtest');
    const csv = await ledger.spend(id, 'csvDownload');
    assert.equal(csv.balance, 5 - CREDIT_COSTS.backtest - CREDIT_COSTS.csvDownload);

    const refund = await ledger.refund(id, `run-${id}-1`);
    assert.equal(refund.applied, true);
    assert.equal(refund.entry.kind, 'refund');
    assert.equal(refund.balance, 5 - CREDIT_COSTS.csvDownload);
    const again = await ledger.refund(id, `run-${id}-1`);
    assert.equal(again.applied, false, 'a failed run is refunded once');
    assert.equal(again.balance, refund.balance);
    await assert.rejects(ledger.refund(id, 'no-such-run'), LedgerError);

    const rows = await ledgerRows(id);
    assert.deepEqual(rows.map((r) => [r.kind, r.reason, r.amount]), [
      ['grant', 'admin', 5],
      ['spend', 'backtest', -2],
      ['spend', 'csvDownload', -1],
      ['refund', 'backtest', 2],
    ]);
    await assertConsistent(id);
    const me = await t.request('GET', '/api/me', { key: (await register(t)).key });
    assert.equal(me.status, 200);
  });

  it('a run of an account deleted since is still refunded (on the archived row), and the stale-run sweep goes on to the next', async () => {
    // Before the fix the refund refused a deleted account ('unknown user'): the cancel rolled
    // back, the sweep stopped at that run, and every stale run after it (other users') stayed
    // charged, sweep after sweep.
    const gone = await register(t);
    const kept = await register(t);
    const start = async (userId: number) => {
      await ledger.grant(userId, CREDIT_COSTS.backtest, 'admin');
      const runId = `run-stale-${userId}`;
      await chargeRun(t.db, ledger, {
        runId, userId, base: `EURUSD_H1_stale_${userId}`, source: 'official', official: true, strategy: 'rsi', strategyLabel: 'RSI', userStrategyId: null,
        symbol: 'EURUSD', timeframe: 'H1', startDate: '2024-01-01', endDate: '2024-01-31', slMode: 'internal', slPips: 10, tp1Pips: 10, tp2Pips: 20, params: '{}', createdAt: t.clock.now(),
      }, {});
      return runId;
    };
    const goneRun = await start(gone.id);
    const keptRun = await start(kept.id);
    // Archived as a deletion did before the purge (users/purge.ts, which now refunds and removes
    // the account's running runs itself): the run stays for the sweep, as on a database of then.
    await t.db.models.User.update({ deletedEmail: gone.email, email: null, username: null, passwordHash: null, deletedAt: t.clock.now() }, { where: { id: gone.id } });
    // Both runs left 'running' (their process died): the sweep gives them up.
    t.clock.advance(60_000);
    assert.equal(await t.app.services.backtests.sweepStale(0), 2);
    for (const [user, runId] of [[gone, goneRun], [kept, keptRun]] as const) {
      const rows = await ledgerRows(user.id);
      assert.deepEqual(rows.filter((r) => r.reference === runId).map((r) => [r.kind, r.amount]), [['spend', -2], ['refund', 2]]);
      assert.equal((await t.db.models.User.findByPk(user.id))?.credits, CREDIT_COSTS.backtest);
      await assertConsistent(user.id);
    }
    assert.equal(await t.db.models.BacktestRun.count({ where: { runId: [goneRun, keptRun] } }), 0);
    // Grants and spends still refuse a deleted account.
    await assert.rejects(ledger.grant(gone.id, 1, 'admin'), LedgerError);
    await assert.rejects(ledger.spend(gone.id, 'csvDownload'), LedgerError);
  });

  it('the stale-run sweep logs a run whose refund fails, with its id, and still refunds the runs after it', async () => {
    // Before the fix the first error of any kind ended the sweep: every later stale run (other
    // users') stayed charged, sweep after sweep.
    const broken = await register(t);
    const kept = await register(t);
    const start = async (userId: number, runId: string) => {
      await ledger.grant(userId, CREDIT_COSTS.backtest, 'admin');
      await chargeRun(t.db, ledger, {
        runId, userId, base: `EURUSD_H1_${runId}`, source: 'official', official: true, strategy: 'rsi', strategyLabel: 'RSI', userStrategyId: null,
        symbol: 'EURUSD', timeframe: 'H1', startDate: '2024-01-01', endDate: '2024-01-31', slMode: 'internal', slPips: 10, tp1Pips: 10, tp2Pips: 20, params: '{}', createdAt: t.clock.now(),
      }, {});
    };
    const brokenRun = `run-broken-${broken.id}`;
    const keptRun = `run-kept-${kept.id}`;
    await start(broken.id, brokenRun);
    await start(kept.id, keptRun);
    // The broken run's charge is not in the ledger any more (a hand edit, a restore): its refund throws.
    await t.db.models.CreditEntry.destroy({ where: { userId: broken.id, reference: brokenRun } });
    await assert.rejects(ledger.refund(broken.id, brokenRun), LedgerError);
    t.clock.advance(60_000);
    const logged = t.logs.length;
    assert.equal(await t.app.services.backtests.sweepStale(0), 1);
    assert.ok(t.logs.slice(logged).some((line) => line.includes(brokenRun) && /could not be cancelled/.test(line)), t.logs.slice(logged).join('\n'));
    assert.deepEqual((await ledgerRows(kept.id)).filter((r) => r.reference === keptRun).map((r) => [r.kind, r.amount]), [['spend', -2], ['refund', 2]]);
    assert.equal(await ledger.balance(kept.id), CREDIT_COSTS.backtest);
    assert.equal(await t.db.models.BacktestRun.count({ where: { runId: keptRun } }), 0);
    // The broken run stays for the admin, untouched; the next sweep meets it again and goes on.
    assert.equal(await t.db.models.BacktestRun.count({ where: { runId: brokenRun, status: 'running' } }), 1);
    assert.equal(await t.app.services.backtests.sweepStale(0), 0);
  });

  it('refuses to overdraw and leaves no row', async () => {
    const { id } = await register(t);
    await ledger.grant(id, 1, 'admin');
    await assert.rejects(ledger.spend(id, 'backtest'), (err: unknown) => {
      assert.ok(err instanceof InsufficientCreditsError);
      assert.equal(err.needed, 2);
      assert.equal(err.balance, 1);
      return true;
    });
    assert.equal(await ledger.balance(id), 1);
    assert.equal((await ledgerRows(id)).length, 1);
  });

  it('credits an external payment reference once, even when the callbacks race', async () => {
    const { id } = await register(t);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => ledger.grant(id, 12, 'purchase', { reference: `stripe:cs_${id}`, meta: { offer_id: 'CREDIT_10', amount_eur: 10 } })),
    );
    assert.equal(results.filter((r) => r.applied).length, 1);
    assert.equal(await ledger.balance(id), 12);
    assert.equal((await ledgerRows(id)).length, 1);
    // The same payment id cannot credit another user either.
    const other = await register(t);
    await assert.rejects(ledger.grant(other.id, 12, 'purchase', { reference: `stripe:cs_${id}` }), LedgerError);
    const me = await t.request('GET', '/api/me', { key: (await t.request('POST', '/api/login', { json: { identifier: other.email, password: other.password } })).body.token });
    assert.equal(me.body.credits, 0);
  });

  it('shows purchases and spends in the profile history', async () => {
    const user = await register(t);
    await ledger.grant(user.id, 12, 'purchase', { reference: `paypal:${user.id}`, meta: { offer_id: 'CREDIT_10', amount_eur: 10 } });
    await ledger.spend(user.id, 'csvDownload', { reference: `csv:${user.id}:EURUSD_M15_2025-01.csv` });
    const me = await t.request('GET', '/api/me', { key: user.key });
    assert.equal(me.body.credits, 11);
    const [csv, purchase] = me.body.purchase_history;
    assert.equal(purchase.offer_id, 'CREDIT_10');
    assert.equal(purchase.label, 'Pack 12 crédits');
    assert.equal(purchase.amount, 10);
    assert.equal(purchase.credits, 12);
    assert.equal(purchase.txid, `paypal:${user.id}`);
    assert.equal(csv.type, 'csvDownload');
    assert.equal(csv.credits, -1);
    assert.equal(csv.balance_after, 11);
    assert.match(csv.date, /^\d{4}-\d\d-\d\dT/);
  });

  it('rejects amounts that are not positive integers', async () => {
    const { id } = await register(t);
    for (const amount of [0, -3, 1.5, Number.NaN]) await assert.rejects(ledger.grant(id, amount, 'admin'), LedgerError);
    await assert.rejects(ledger.spend(id, 'nothing' as never), LedgerError);
  });

  it('100 parallel spends of 2 against a balance of 10: exactly 5 succeed, balance 0, 5 rows', async (ctx) => {
    const { id } = await register(t);
    await ledger.grant(id, 10, 'admin');
    const started = performance.now();
    const outcomes = await Promise.allSettled(Array.from({ length: 100 }, (_, i) => ledger.spend(id, 'backtest', { reference: `par-${id}-${i}` })));
    const ms = performance.now() - started;
    const ok = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o) => o.status === 'rejected');
    assert.equal(ok.length, 5);
    assert.equal(refused.length, 95);
    for (const r of refused) assert.ok((r as PromiseRejectedResult).reason instanceof InsufficientCreditsError, String((r as PromiseRejectedResult).reason));
    // The refusal says the balance that refused it (MySQL read a stale snapshot: "2 needed, balance 6").
    for (const r of refused) assert.ok((r as PromiseRejectedResult).reason.balance < 2, String((r as PromiseRejectedResult).reason));
    assert.equal(await ledger.balance(id), 0);
    const spends = (await ledgerRows(id)).filter((r) => r.kind === 'spend');
    assert.equal(spends.length, 5);
    assert.deepEqual(spends.map((r) => r.balanceAfter).sort((a, b) => a - b), [0, 2, 4, 6, 8]);
    await assertConsistent(id);
    ctx.diagnostic(`concurrency (${TEST_DIALECT}): 100 parallel spends in ${ms.toFixed(0)} ms, ${ok.length} succeeded`);
  });

  it('the same race through HTTP-sized work: parallel spends on two users stay separate', async () => {
    const a = await register(t);
    const b = await register(t);
    await ledger.grant(a.id, 6, 'admin');
    await ledger.grant(b.id, 4, 'admin');
    const outcomes = await Promise.allSettled([
      ...Array.from({ length: 20 }, () => ledger.spend(a.id, 'backtest')),
      ...Array.from({ length: 20 }, () => ledger.spend(b.id, 'extraction')),
    ]);
    assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 3 + 4);
    assert.equal(await ledger.balance(a.id), 0);
    assert.equal(await ledger.balance(b.id), 0);
    await assertConsistent(a.id);
    await assertConsistent(b.id);
  });
});
