// A Stripe subscription notice about one account locks that account alone. Its UPDATE finds the
// account by subscription_id, which had no index: on MariaDB it read and locked every account's
// row until it committed, so every other user's charge, purchase or sign-in waited behind a notice
// about someone else, and a notice waited behind any of theirs (migration
// 0022-subscription-and-state-indexes; docs/server.md, "Sign-ups at once on MariaDB").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { register } from './support/app.js';
import { MYSQL_SERVER, TEST_DIALECT } from './support/db.js';
import { buyWithStripe, usePaymentApp } from './support/payments.js';

const p = usePaymentApp();
const { t } = p;

/** The plan the database uses for `sql`, as one line of text per step. */
async function plan(sql: string): Promise<string> {
  const [rows] = await t.db.sequelize.query(TEST_DIALECT === 'mysql' ? `EXPLAIN ${sql}` : `EXPLAIN QUERY PLAN ${sql}`);
  return (rows as Record<string, unknown>[]).map((row) => JSON.stringify(row)).join('\n');
}

describe(`subscription notices and other accounts' locks (${TEST_DIALECT})`, () => {
  it('the lookups by subscription and by state expiry use an index', async () => {
    const bySubscription = await plan("UPDATE users SET subscription_auto_renew = 0 WHERE subscription_provider = 'stripe' AND subscription_id = 'sub_x'");
    assert.match(bySubscription, /users_subscription/, bySubscription);
    const expired = await plan("SELECT id FROM oidc_states WHERE expires_at < '2026-01-01 00:00:00'");
    assert.match(expired, /oidc_states_expires/, expired);
  });

  it("MariaDB: a notice about one account is answered while another account's row is locked, and stops that renewal only", { skip: TEST_DIALECT !== 'mysql' && 'InnoDB row locks: MariaDB pass' }, async () => {
    const other = await register(t);
    const subscriber = await register(t);
    const { session } = await buyWithStripe(p, subscriber, 'SUB_9');
    const subscriptionId = p.stripe.sessions.get(session.id)!.subscription;
    const { createConnection } = await import('mysql2/promise');
    const holder = await createConnection(`${MYSQL_SERVER.replace(/\/+$/, '')}/${t.db.sequelize.getDatabaseName()}`);
    try {
      // Another request of the other user in its transaction (a charge holds the row so).
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM users WHERE id = ? FOR UPDATE', [other.id]);
      p.stripe.subscriptions.get(subscriptionId)!.cancel_at_period_end = true;
      const notice = { id: 'evt_stop_one', object: 'event', type: 'customer.subscription.updated', data: { object: { ...p.stripe.subscriptions.get(subscriptionId)! } } };
      // Without the index the notice waited for the other row (innodb_lock_wait_timeout, 50 s by
      // default, then three more tries): 20 s is a bound on a wait that should not happen at all.
      const answer = await Promise.race([p.stripe.send(notice), new Promise<null>((resolve) => setTimeout(() => resolve(null), 20_000).unref())]);
      assert.ok(answer, "the notice waited for another account's lock");
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const rows = await t.db.models.User.findAll({ where: { id: [other.id, subscriber.id] }, attributes: ['id', 'subscriptionAutoRenew'] });
      const renews = new Map(rows.map((row) => [row.id, row.subscriptionAutoRenew]));
      assert.equal(renews.get(subscriber.id), false);
      assert.equal(renews.get(other.id), false, 'never subscribed');
      assert.equal(t.db.lockRetries.count, 0);
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      await holder.end();
    }
  });
});
