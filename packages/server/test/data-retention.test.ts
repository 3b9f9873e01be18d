import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { randomUUID } from 'node:crypto';
import { Op } from 'sequelize';
import { DataRetention } from '../src/retention/sweep.js';
import { eraseExpired } from '../src/users/erasure.js';
import { newPerson, register, useTestApp, type TestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';

/**
 * Rows kept past their use (docs/server.md "Data retention"): support messages 24 months after
 * receipt, and at the erasure of the account that sent them; one-time links 30 days after their
 * expiry; session keys idle past their limit; expired sign-in states and codes. Each removed by the
 * minute sweep at its boundary, a bounded number a round, once when two servers sweep at once.
 */
const t = useTestApp();

const DAY = 24 * 3600 * 1000;
const IDLE_MS = 30 * DAY; // the test app's sessionIdleMs (app/config.ts)

/** The test clock moved to `months` calendar months after `from`, plus `ms`. */
function moveTo(t: TestApp, from: Date, months: number, ms = 0): void {
  const target = new Date(from.getTime());
  target.setUTCMonth(target.getUTCMonth() + months);
  t.clock.advance(target.getTime() + ms - t.clock.now().getTime());
}

// Support messages are stamped by the database layer with the real time: each test starts with the
// app's clock on it, so the times the app writes and those Sequelize writes agree.
beforeEach(() => moveTo(t, new Date(), 0));

let seq = 0;
/** A message through the form, signed in when `key` is given; its row. */
async function supportMessage(t: TestApp, email: string, key?: string) {
  seq++;
  const res = await t.request('POST', '/api/support', { key, json: { type: 'contact', firstName: 'Camille', lastName: 'Durand', email, message: `Bonjour, message ${seq} (${randomUUID()})` } });
  assert.equal(res.status, 201, res.text);
  return (await t.db.models.SupportMessage.findOne({ order: [['id', 'DESC']] }))!;
}

const exists = async (id: number) => (await t.db.models.SupportMessage.findByPk(id)) !== null;
const sweep = (limit?: number) => t.app.services.retention.sweep(limit);

async function deleteAccount(t: TestApp, user: Awaited<ReturnType<typeof register>>): Promise<Date> {
  const res = await t.request('POST', '/api/user/delete_account', { key: user.key, json: { current_password: user.password } });
  assert.equal(res.status, 200, res.text);
  return (await t.db.models.User.findByPk(user.id))!.deletedAt!;
}

describe(`data retention (${TEST_DIALECT})`, () => {
  it('a support message is kept 24 months after its receipt, to the day, then removed by the sweep', async () => {
    const old = await supportMessage(t, `ancien-${randomUUID()}@example.com`);
    const newer = await supportMessage(t, `recent-${randomUUID()}@example.com`);
    // Received two days later.
    await t.db.sequelize.query('UPDATE support_messages SET created_at = ? WHERE id = ?', { replacements: [new Date(old.createdAt.getTime() + 2 * DAY), newer.id] });
    assert.equal((await t.db.models.SupportMessage.findByPk(newer.id))!.createdAt.getTime(), old.createdAt.getTime() + 2 * DAY);

    moveTo(t, old.createdAt, 24, -DAY);
    await sweep();
    assert.ok(await exists(old.id), '24 months less a day: kept');

    moveTo(t, old.createdAt, 24, DAY);
    const removed = await sweep();
    assert.equal(await exists(old.id), false, '24 months and a day: removed');
    assert.ok(await exists(newer.id), 'a message received two days later is still within its 24 months');
    assert.ok(removed.supportMessages >= 1);
    assert.ok(t.logs.some((l) => /^retention: \d+ support messages older than 24 months removed$/.test(l)), t.logs.join('\n'));
  });

  it('removes at most `limit` messages a round; the next round takes the rest', async () => {
    const rows = [];
    for (let i = 0; i < 3; i++) rows.push(await supportMessage(t, `lot-${randomUUID()}@example.com`));
    moveTo(t, rows[2].createdAt, 24, DAY);
    // Anything older left by the tests before goes first.
    while ((await sweep(50)).supportMessages > 0);
    for (const row of rows) assert.equal(await exists(row.id), false);

    const more = [];
    moveTo(t, new Date(), 0);
    for (let i = 0; i < 3; i++) more.push(await supportMessage(t, `lot-${randomUUID()}@example.com`));
    moveTo(t, more[2].createdAt, 24, DAY);
    assert.equal((await sweep(2)).supportMessages, 2);
    assert.deepEqual(await Promise.all(more.map((row) => exists(row.id))), [false, false, true], 'oldest first');
    assert.equal((await sweep(2)).supportMessages, 1);
    assert.equal(await exists(more[2].id), false);
  });

  it('a one-time link is kept 30 days after its expiry, used or not, then removed', async () => {
    const user = await register(t);
    const other = await register(t);
    const { UserToken } = t.db.models;
    const token = (await UserToken.findOne({ where: { userId: user.id, purpose: 'verify_email' } }))!;
    assert.ok(token, 'the sign-up issued a verification link');
    const otherToken = (await UserToken.findOne({ where: { userId: other.id } }))!;
    // The other user's link expires two days later.
    await UserToken.update({ expiresAt: new Date(token.expiresAt.getTime() + 2 * DAY), usedAt: t.clock.now() }, { where: { id: otherToken.id } });

    t.clock.advance(token.expiresAt.getTime() + 30 * DAY - DAY - t.clock.now().getTime());
    await sweep();
    assert.ok(await UserToken.findByPk(token.id), '30 days less a day after its expiry: kept');

    t.clock.advance(2 * DAY);
    assert.ok((await sweep()).tokens >= 1);
    assert.equal(await UserToken.findByPk(token.id), null, '30 days and a day after its expiry: removed');
    assert.ok(await UserToken.findByPk(otherToken.id), 'a used link that expired two days later is kept');
    t.clock.advance(2 * DAY);
    await sweep();
    assert.equal(await UserToken.findByPk(otherToken.id), null, 'used, it goes all the same');
  });

  it('a session key idle past SESSION_IDLE_DAYS is removed; one used since is kept', async () => {
    const idle = await register(t);
    const busy = await register(t);
    const keyOf = async (userId: number) => t.db.models.ApiKey.findOne({ where: { userId } });
    const issuedAt = (await keyOf(idle.id))!.lastUsedAt!;

    t.clock.advance(IDLE_MS - DAY);
    await sweep();
    assert.ok(await keyOf(idle.id), 'idle a day less than the limit: kept');
    // The busy user's key is used now: its last use moves.
    assert.equal((await t.request('GET', '/api/me', { key: busy.key })).status, 200);

    moveTo(t, issuedAt, 0, IDLE_MS + DAY);
    assert.ok((await sweep()).sessions >= 1);
    assert.equal(await keyOf(idle.id), null, 'idle a day past the limit: removed');
    assert.ok(await keyOf(busy.id), 'a key used within the limit is kept');
    assert.equal((await t.request('GET', '/api/me', { key: idle.key })).status, 401, 'answered as an idle key always was');
    assert.equal((await t.request('GET', '/api/me', { key: busy.key })).status, 200);
  });

  it('an OpenID Connect state is removed once expired, even when no sign-in starts again', async () => {
    const { OidcState } = t.db.models;
    const expiresAt = new Date(t.clock.now().getTime() + 10 * 60_000);
    const row = await OidcState.create({ stateHash: randomUUID().replace(/-/g, ''), bindingHash: 'b'.repeat(64), provider: 'google', nonce: 'n', codeVerifier: 'v', nextPath: '/profil', expiresAt });
    t.clock.advance(9 * 60_000);
    await sweep();
    assert.ok(await OidcState.findByPk(row.id), 'not expired: kept');
    t.clock.advance(2 * 60_000);
    assert.ok((await sweep()).oidcStates >= 1);
    assert.equal(await OidcState.findByPk(row.id), null);
  });

  it('a sign-in code nobody redeemed is removed once past its minute', async () => {
    const { OidcCode } = t.db.models;
    const user = await register(t);
    const expiresAt = new Date(t.clock.now().getTime() + 60_000);
    const row = await OidcCode.create({ codeHash: randomUUID().replace(/-/g, ''), bindingHash: 'b'.repeat(64), provider: 'google', userId: user.id, nextPath: '/profile', expiresAt });
    t.clock.advance(59_000);
    await sweep();
    assert.ok(await OidcCode.findByPk(row.id), 'not expired: kept');
    t.clock.advance(2_000);
    assert.ok((await sweep()).oidcCodes >= 1);
    assert.equal(await OidcCode.findByPk(row.id), null);
  });

  it("an account's erasure removes its support messages, signed in or sent with its address, and no one else's", async () => {
    const person = newPerson('efface');
    const gone = await register(t, person);
    const live = await register(t);
    const signedIn = await supportMessage(t, `autre-${randomUUID()}@example.com`, gone.key);
    // Signed out, its address typed with capitals and spaces: the same address.
    const signedOut = await supportMessage(t, `  ${person.email.toUpperCase()} `);
    const liveOwn = await supportMessage(t, live.email, live.key);
    // Signed out with the erased address, but by a live account (linked to it): its own.
    const liveWithAddress = await supportMessage(t, person.email, live.key);
    const stranger = await supportMessage(t, `x${person.email}`);
    const deletedAt = await deleteAccount(t, gone);

    moveTo(t, deletedAt, 12, -DAY);
    await t.app.services.purge.sweepDeleted();
    assert.ok(await exists(signedIn.id), 'archived, not yet erased: kept');
    assert.ok(await exists(signedOut.id));

    moveTo(t, deletedAt, 12, DAY);
    await t.app.services.purge.sweepDeleted();
    assert.ok((await t.db.models.User.findByPk(gone.id))!.erasedAt, 'erased');
    assert.equal(await exists(signedIn.id), false, 'sent signed in: removed with the account');
    assert.equal(await exists(signedOut.id), false, 'sent signed out with its address: removed');
    for (const kept of [liveOwn, liveWithAddress, stranger]) assert.ok(await exists(kept.id), `message ${kept.id} of someone else: kept`);
    const left = await t.db.models.SupportMessage.count({ where: { [Op.or]: [{ userId: gone.id }, { email: person.email }] } });
    assert.equal(left, 1, 'only the live account’s message typed with that address');
  });

  it('keeps the messages sent signed out with an address a live account has taken again', async () => {
    const person = newPerson('repris');
    const first = await register(t, person);
    const signedIn = await supportMessage(t, person.email, first.key);
    const signedOut = await supportMessage(t, person.email);
    const deletedAt = await deleteAccount(t, first);
    // The address signs up again: its signed-out messages may be the new account's.
    await register(t, { ...newPerson('repris'), email: person.email });

    moveTo(t, deletedAt, 12, DAY);
    await t.app.services.purge.sweepDeleted();
    assert.ok((await t.db.models.User.findByPk(first.id))!.erasedAt);
    assert.equal(await exists(signedIn.id), false, 'the erased account’s own message goes');
    assert.ok(await exists(signedOut.id), 'the live account holds the address: its signed-out messages stay (24 months)');
  });

  it('two servers sweeping at once remove each row once, without an error', async () => {
    // Everything the tests before left is swept first, so that only this test's rows are due below.
    moveTo(t, new Date(), 25);
    while (Object.values(await sweep(1000)).some((n) => n > 0));

    moveTo(t, new Date(), 0);
    const rows = [];
    for (let i = 0; i < 4; i++) rows.push(await supportMessage(t, `double-${randomUUID()}@example.com`));
    const users = [await register(t), await register(t)];
    moveTo(t, rows[3].createdAt, 24, DAY);
    const logged: string[] = [];
    const server = () => new DataRetention({ db: t.db, clock: t.clock, log: (m) => logged.push(m), sessionIdleMs: IDLE_MS });
    const [a, b] = await Promise.all([server().sweep(), server().sweep()]);
    assert.deepEqual(logged.filter((l) => /not removed/.test(l)), [], 'no purge failed');
    const sum = (kind: keyof typeof a) => a[kind] + b[kind];
    assert.deepEqual([sum('supportMessages'), sum('tokens'), sum('sessions')], [4, 2, 2], JSON.stringify({ a, b }));
    for (const row of rows) assert.equal(await exists(row.id), false);
    assert.equal(await t.db.models.UserToken.count({ where: { userId: users.map((u) => u.id) } }), 0);
    assert.equal(await t.db.models.ApiKey.count({ where: { userId: users.map((u) => u.id) } }), 0);
  });

  it('two erasures at once remove the account’s messages once, without an error', async () => {
    const people = [newPerson('double'), newPerson('double')];
    const users = [];
    const messages = [];
    for (const person of people) {
      const user = await register(t, person);
      messages.push(await supportMessage(t, person.email, user.key), await supportMessage(t, person.email));
      users.push({ ...user, deletedAt: await deleteAccount(t, user) });
    }
    moveTo(t, users[1].deletedAt, 12, DAY);
    const deps = { db: t.db, clock: t.clock, log: () => {} };
    const counts = await Promise.all([eraseExpired(deps, 20), eraseExpired(deps, 20)]);
    assert.ok(counts[0] + counts[1] >= 2);
    for (const user of users) assert.ok((await t.db.models.User.findByPk(user.id))!.erasedAt);
    for (const message of messages) assert.equal(await exists(message.id), false);
  });

  it('the sweeps find their rows by an index, not by reading each table', async () => {
    const qi = t.db.sequelize.getQueryInterface();
    const fields = async (table: string, name: string) =>
      ((await qi.showIndex(table)) as { name: string; fields: { attribute: string }[] }[]).find((i) => i.name === name)?.fields.map((f) => f.attribute);
    assert.deepEqual(await fields('support_messages', 'support_messages_created'), ['created_at']);
    assert.deepEqual(await fields('user_tokens', 'user_tokens_expires'), ['expires_at']);
    assert.deepEqual(await fields('api_keys', 'api_keys_last_used'), ['last_used_at']);
  });

  it('the minute sweep runs the purges', async () => {
    const row = await supportMessage(t, `minute-${randomUUID()}@example.com`);
    moveTo(t, row.createdAt, 24, DAY);
    t.app.services.backtests.startSweeper(100, 3600_000);
    const deadline = Date.now() + 10_000;
    while ((await exists(row.id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(await exists(row.id), false, 'removed by the sweep main.ts starts');
  });
});
