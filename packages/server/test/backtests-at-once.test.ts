// Backtests at once, on MariaDB without a transaction run again after a deadlock (docs/server.md,
// "Sign-ups at once on MariaDB"; past 4 tries a 503):
// - several users' first backtests: the charge's procedure (bt_charge_backtest, migration 0006)
//   checked the folder with `IF EXISTS (SELECT ...)`, a locking read on MariaDB, which held the gap
//   of the folder index past the highest user id, the same for every new user; each charge then
//   waited for the other's INSERT there (migration 0021 makes it a plain read);
// - runs given up while their accounts are deleted: cancelRun locked the run's row, then the
//   account's for the refund, the opposite order of the deletion's (it now locks the account first).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CREDIT_COSTS } from '@bt/core/catalogue';
import { chargeRun } from '../src/backtests/charge.js';
import { useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { runStart } from './support/run-start.js';
import { balance, funded, ledgerRows, runBacktest } from './support/work.js';

const t = useTestApp({ library: true });

const COST = CREDIT_COSTS.backtest;
/** A short built-in run (a week of the library's H1 candles): the charge, not the engine, is what is tested. */
const RUN = { strategy: 'englobante_entry', timeframe: 'H1', start_date: '2023-01-02', end_date: '2023-01-06' };
const BASE = 'EURUSD_H1_englobante_entry_20230102-20230106_sl10';

describe(`backtests at once (${TEST_DIALECT})`, () => {
  it("12 new users' first backtests at once, 3 times: each charged once in its own folder, and no charge is run again after a deadlock", async () => {
    const retriesBefore = t.db.lockRetries.count;
    for (let round = 0; round < 3; round++) {
      const users = await Promise.all(Array.from({ length: 12 }, () => funded(t, 3)));
      const answers = await Promise.all(users.map((user) => runBacktest(t, user.key, RUN)));
      for (const [i, answer] of answers.entries()) {
        assert.equal(answer.status, 200, answer.text.slice(0, 300));
        assert.deepEqual([answer.body.folder, answer.body.credits_remaining], [BASE, 3 - COST]);
        assert.equal(await balance(t, users[i].id), 3 - COST);
        assert.deepEqual((await ledgerRows(t, users[i].id)).map((r) => [r.kind, r.amount]), [['grant', 3], ['spend', -COST]]);
      }
    }
    if (TEST_DIALECT !== 'sqlite') assert.equal(t.db.lockRetries.count, retriesBefore, 'charges run again after a deadlock or a lock wait timeout');
  });

  it('4 new users sending 3 backtests each at once, twice: every run charged once, the folders suffixed by the run counter', async () => {
    const retriesBefore = t.db.lockRetries.count;
    for (let round = 0; round < 2; round++) {
      const users = await Promise.all(Array.from({ length: 4 }, () => funded(t, 3 * COST)));
      const answers = await Promise.all(users.flatMap((user) => [0, 1, 2].map(() => runBacktest(t, user.key, RUN).then((answer) => ({ user, answer })))));
      for (const { answer } of answers) assert.equal(answer.status, 200, answer.text.slice(0, 300));
      for (const user of users) {
        const folders = answers.filter((a) => a.user === user).map((a) => a.answer.body.folder as string).sort();
        assert.deepEqual(folders, [BASE, `${BASE}_2`, `${BASE}_3`]);
        assert.equal(await balance(t, user.id), 0);
      }
    }
    if (TEST_DIALECT !== 'sqlite') assert.equal(t.db.lockRetries.count, retriesBefore, 'charges run again after a deadlock or a lock wait timeout');
  });

  it('runs left running, given up by the stale-run sweep of two servers while their users delete their accounts: each refunded once, no transaction run again', async () => {
    const retriesBefore = t.db.lockRetries.count;
    for (let round = 0; round < 2; round++) {
      const users = await Promise.all(Array.from({ length: 8 }, () => funded(t, 2 * COST)));
      // Charged, then their process died: rows left 'running', as the route leaves them then.
      const runs = await Promise.all(users.map(async (user) => [
        (await chargeRun(t.db, t.app.services.ledger, runStart(t, user.id, `EURUSD_M15_stale_a${round}`), {})).run.runId,
        (await chargeRun(t.db, t.app.services.ledger, runStart(t, user.id, `EURUSD_M15_stale_b${round}`), {})).run.runId,
      ]));
      t.clock.advance(3_600_000);
      const [, , ...answers] = await Promise.all([
        t.app.services.backtests.sweepStale(60_000),
        t.app.services.backtests.sweepStale(60_000),
        ...users.map((user) => t.request('POST', '/api/user/delete_account', { key: user.key, json: { current_password: user.password } })),
      ]);
      for (const answer of answers as { status: number; text: string }[]) assert.equal(answer.status, 200, answer.text.slice(0, 300));
      for (const [i, user] of users.entries()) {
        // Refunded once each, by the sweep or by the deletion, on the archived row.
        const rows = (await ledgerRows(t, user.id)).filter((r) => runs[i].includes(r.reference ?? ''));
        assert.deepEqual(rows.map((r) => [r.kind, r.amount]).sort(), [['refund', COST], ['refund', COST], ['spend', -COST], ['spend', -COST]]);
        assert.equal((await t.db.models.User.findByPk(user.id))?.credits, 2 * COST);
      }
      assert.equal(await t.db.models.BacktestRun.count({ where: { userId: users.map((u) => u.id) } }), 0);
    }
    if (TEST_DIALECT !== 'sqlite') assert.equal(t.db.lockRetries.count, retriesBefore, 'transactions run again after a deadlock or a lock wait timeout');
  });
});
