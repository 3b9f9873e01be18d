import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { randomUUID } from 'node:crypto';
import { eraseExpired } from '../src/users/erasure.js';
import { register, useTestApp, type TestApp } from './support/app.js';
import { makeAdmin } from './support/work.js';

/**
 * A deleted account's archived row is erased 12 months after its deletion (docs/server.md
 * "Deleting an account", the legal notice's promise): its personal fields cleared once by the
 * minute sweep, the row kept with its id for the ledger, payments and invoices that name it.
 */
const t = useTestApp();

const DAY = 24 * 3600 * 1000;

/** Moves the test clock to `months` calendar months after `from`, plus `days` days. */
function moveTo(t: TestApp, from: Date, months: number, days = 0): void {
  const target = new Date(from.getTime());
  target.setUTCMonth(target.getUTCMonth() + months);
  t.clock.advance(target.getTime() + days * DAY - t.clock.now().getTime());
}

/** A user who paid once (a payment row, as the accounting record keeps it), then deleted the account. */
async function deletedBuyer(t: TestApp) {
  const user = await register(t);
  await t.app.services.ledger.grant(user.id, 5, 'admin');
  await t.db.models.User.update({ subscriptionProvider: 'stripe', subscriptionId: `sub_${randomUUID()}`, lastSeenAt: t.clock.now() }, { where: { id: user.id } });
  await t.db.models.Payment.create({
    reference: randomUUID(), provider: 'stripe', kind: 'purchase', providerRef: `cs_${randomUUID()}`, userId: user.id, offerId: 'CREDIT_5',
    credits: 5, amountExpectedCents: 500, currencyExpected: 'EUR', amountReceivedCents: 500, currencyReceived: 'EUR', status: 'paid', paidAt: t.clock.now(),
  });
  const res = await t.request('POST', '/api/user/delete_account', { key: user.key, json: { current_password: user.password } });
  assert.equal(res.status, 200, res.text);
  const row = await t.db.models.User.findByPk(user.id);
  assert.ok(row?.deletedAt);
  return { ...user, deletedAt: row.deletedAt };
}

const PERSONAL = ['email', 'deletedEmail', 'username', 'passwordHash', 'emailVerifiedAt', 'subscriptionId', 'subscriptionProvider', 'subscriptionRenewDate', 'lastSeenAt'] as const;

describe('account erasure after 12 months (docs/server.md "Deleting an account")', () => {
  it('keeps the archived row 11 months, erases its personal fields at 12 months and a day, once, and keeps the accounting', async () => {
    const user = await deletedBuyer(t);
    const recreation = () => t.db.models.EmailRecreation.findByPk(user.email);
    assert.ok(await recreation(), 'the deletion counts toward the address re-creation limit');

    moveTo(t, user.deletedAt, 11);
    await t.app.services.purge.sweepDeleted();
    let row = (await t.db.models.User.findByPk(user.id))!;
    assert.equal(row.deletedEmail, user.email, '11 months: still archived as deleted');
    assert.equal(row.firstName, user.first_name);
    assert.equal(row.erasedAt, null);
    assert.ok(await recreation(), '11 months: the re-creation count holds');

    moveTo(t, user.deletedAt, 12, 1);
    await t.app.services.purge.sweepDeleted();
    row = (await t.db.models.User.findByPk(user.id))!;
    for (const field of PERSONAL) assert.equal(row[field], null, `${field} erased`);
    assert.deepEqual([row.firstName, row.lastName], ['', '']);
    assert.ok(row.erasedAt, 'marked erased');
    assert.ok(row.deletedAt, 'still a deleted account');
    assert.equal(await recreation(), null, 'the plain address left email_recreations with the erasure');
    const erasedAt = row.erasedAt.getTime();

    // The accounting stays, naming the row by id.
    assert.equal(await t.db.models.Payment.count({ where: { userId: user.id } }), 1);
    assert.ok((await t.db.models.CreditEntry.count({ where: { userId: user.id } })) > 0);

    // Once: a later sweep leaves the erased row as it is.
    t.clock.advance(DAY);
    await t.app.services.purge.sweepDeleted();
    assert.equal((await t.db.models.User.findByPk(user.id))!.erasedAt!.getTime(), erasedAt);
  });

  it('the sweep finds the accounts to erase by an index, not by reading every user', async () => {
    const indexes = (await t.db.sequelize.getQueryInterface().showIndex('users')) as { name: string; fields: { attribute: string }[] }[];
    assert.deepEqual(indexes.find((i) => i.name === 'users_erased_deleted')?.fields.map((f) => f.attribute), ['erased_at', 'deleted_at']);
  });

  it('two sweeps at once erase an account once', async () => {
    const users = [await deletedBuyer(t), await deletedBuyer(t), await deletedBuyer(t)];
    moveTo(t, users[2].deletedAt, 12, 1);
    const logged: string[] = [];
    const deps = { db: t.db, clock: t.clock, log: (m: string) => logged.push(m) };
    const counts = await Promise.all([eraseExpired(deps, 20), eraseExpired(deps, 20)]);
    const mine = logged.filter((m) => users.some((u) => m.startsWith(`account ${u.id}:`)));
    assert.equal(mine.length, 3, mine.join('\n'));
    assert.ok(counts[0] + counts[1] >= 3);
    for (const u of users) assert.ok((await t.db.models.User.findByPk(u.id))!.erasedAt);
  });

  it('keeps the address re-creation count while a later deletion of the address is not yet erased', async () => {
    const first = await deletedBuyer(t);
    moveTo(t, first.deletedAt, 6);
    const again = await register(t, { first_name: 'Camille', last_name: 'Durand', email: first.email, username: `u${randomUUID().slice(0, 8)}`, password: 'motdepasse-2' });
    assert.equal((await t.request('POST', '/api/user/delete_account', { key: again.key, json: { current_password: again.password } })).status, 200);
    moveTo(t, first.deletedAt, 12, 1);
    await t.app.services.purge.sweepDeleted();
    assert.ok((await t.db.models.User.findByPk(first.id))!.erasedAt, 'the first account is erased');
    const count = await t.db.models.EmailRecreation.findByPk(first.email);
    assert.deepEqual([count?.deletions, count?.recreations], [2, 1], 'the second deletion, 6 months old, still needs the count');
  });

  it('the admin console and statistics answer for an erased account', async () => {
    const user = await deletedBuyer(t);
    moveTo(t, user.deletedAt, 12, 1);
    await t.app.services.purge.sweepDeleted();
    assert.ok((await t.db.models.User.findByPk(user.id))!.erasedAt);
    const admin = await makeAdmin(t);
    for (const path of [
      '/api/admin/get_users?limit=500',
      '/api/admin/global_stats',
      '/api/admin/global_history',
      '/api/admin/factures_list',
      '/api/admin/metrics/overview?range=all',
      '/api/admin/metrics/breakdown?kind=top_customers&range=all',
      '/api/admin/metrics/details/sales?range=all',
      '/api/admin/metrics/details/users_all?range=all',
      '/api/admin/stats/backtest_summary',
    ]) {
      const res = await t.request('GET', path, { key: admin.key });
      assert.equal(res.status, 200, `${path}: ${res.status} ${res.text.slice(0, 300)}`);
    }
    const history = await t.request('GET', `/api/admin/user_history/${user.id}`, { key: admin.key });
    assert.equal(history.status, 200, history.text);
    assert.equal(history.body.user.deleted, true);
    assert.ok(history.body.history.length > 0, 'its ledger rows, the accounting record, still listed');
  });
});
