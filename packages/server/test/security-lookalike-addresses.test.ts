// Look-alike addresses (docs/security.md "Look-alike addresses"): MySQL's utf8mb4_unicode_ci
// equates "é" and "e", so before migration 0007 a password reset asked for
// admin…@bt-désk.example mailed the link for admin…@bt-desk.example's account to the asker.
// Each layer is tested alone where the dialect allows: the exact comparison in code with the
// columns put back in unicode_ci, and the binary columns with a plain database look-up.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Op, QueryTypes } from 'sequelize';
import { userWithEmail } from '../src/users/lookup.js';
import { newPerson, register, useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { recipients, startSmtp, type Inbox } from './support/smtp.js';

let inbox: Inbox;
const t = useTestApp(
  async () => {
    inbox = await startSmtp();
    return { smtpUrl: inbox.url };
  },
  { stopped: () => inbox.close() },
);

const CONFIRMATION = 'Si un compte existe pour cette adresse, un lien de reset a été envoyé.';
const RESET_SUBJECT = 'Réinitialisation de ton mot de passe';
let pair = 0;

/** A victim's account at an ASCII address, and the same address with one accented letter. */
async function victimAndLookalike() {
  pair += 1;
  const local = `admin${process.pid}x${pair}`;
  const victim = await register(t, { ...newPerson('victim'), email: `${local}@bt-desk.example` });
  return { victim, lookalike: `${local}@bt-désk.example` };
}

const resetMails = (to: string) => inbox.messages.filter((m) => m.subject === RESET_SUBJECT && recipients(m).includes(to));
const settle = () => new Promise((resolve) => setTimeout(resolve, 400));

describe(`look-alike addresses (${TEST_DIALECT})`, () => {
  it('a reset asked for a look-alike address mails nothing; signing in with it fails; it can hold its own account', async () => {
    const { victim, lookalike } = await victimAndLookalike();
    const asked = await t.request('POST', '/api/auth/generate-reset-token', { json: { email: lookalike } });
    assert.equal(asked.status, 200);
    assert.deepEqual(asked.body, { status: 'success', message: CONFIRMATION }, 'the same answer as for any address');
    await settle();
    assert.equal(resetMails(lookalike).length, 0, 'no link to the look-alike address');
    assert.equal(resetMails(victim.email).length, 0, 'and no reset started for the victim');

    // The victim's own address, in capitals: the same account, mailed at its stored address.
    await t.request('POST', '/api/auth/generate-reset-token', { json: { email: victim.email.toUpperCase() } });
    const mail = await inbox.waitFor((m) => m.subject === RESET_SUBJECT && recipients(m).includes(victim.email));
    assert.deepEqual(recipients(mail), [victim.email]);

    const login = await t.request('POST', '/api/login', { json: { identifier: lookalike, password: victim.password } });
    assert.equal(login.status, 401);
    assert.deepEqual(login.body, { detail: 'Identifiants invalides' });

    const own = await t.request('POST', '/api/register', { json: { ...newPerson('lookalike'), email: lookalike } });
    assert.equal(own.status, 201, own.text);
    const me = await t.request('GET', '/api/me', { key: own.body.token });
    assert.equal(me.body.email, lookalike);
    assert.notEqual(me.body.id, victim.id);
    const victimMe = await t.request('GET', '/api/me', { key: victim.key });
    assert.equal(victimMe.body.email, victim.email, 'the victim keeps its address');
  });

  it('changing one’s address to a look-alike of another account’s is allowed, and takes nothing from it', async () => {
    const { victim, lookalike } = await victimAndLookalike();
    const other = await register(t);
    const changed = await t.request('POST', '/api/profile/update', { json: { email: lookalike, password: other.password }, key: other.key });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.body.user.email, lookalike);
    assert.equal((await t.request('GET', '/api/me', { key: victim.key })).body.email, victim.email);
  });

  it('the binary columns alone: a plain database look-up of a look-alike finds nothing (MySQL; SQLite compares bytes)', async () => {
    const { victim, lookalike } = await victimAndLookalike();
    const { User } = t.db.models;
    assert.equal(await User.findOne({ where: { email: lookalike } }), null);
    assert.equal((await User.findOne({ where: { email: victim.email } }))?.id, victim.id);
    if (TEST_DIALECT !== 'mysql') return;
    const rows = await t.db.sequelize.query<{ t: string; c: string; collation: string }>(
      `SELECT TABLE_NAME AS t, COLUMN_NAME AS c, COLLATION_NAME AS collation FROM information_schema.COLUMNS
       WHERE TABLE_SCHEMA = DATABASE() AND ((TABLE_NAME = 'users' AND COLUMN_NAME IN ('username', 'email', 'deleted_email'))
         OR (TABLE_NAME = 'user_identities' AND COLUMN_NAME IN ('subject', 'email')) OR (TABLE_NAME = 'email_recreations' AND COLUMN_NAME = 'email')
         OR (TABLE_NAME = 'events' AND COLUMN_NAME IN ('label', 'strategy')))
`,
      { type: QueryTypes.SELECT },
    );
    assert.deepEqual(
      rows.map((r) => `${r.t}.${r.c} ${r.collation}`).sort(),
      ['email_recreations.email utf8mb4_bin', 'events.label utf8mb4_bin', 'events.strategy utf8mb4_bin', 'user_identities.email utf8mb4_bin', 'user_identities.subject utf8mb4_bin', 'users.deleted_email utf8mb4_bin', 'users.email utf8mb4_bin', 'users.username utf8mb4_bin'],
    );
  });

  it('the exact comparison alone: with users.email back in unicode_ci, a look-alike still reaches no account', { skip: TEST_DIALECT !== 'mysql' && 'MySQL only: SQLite has no accent-blind collation' }, async () => {
    const { victim, lookalike } = await victimAndLookalike();
    const { User } = t.db.models;
    // The look-alike accounts of the cases above would break the accent-blind unique index.
    await User.update({ email: null }, { where: { email: { [Op.like]: '%@bt-désk.example' } } });
    await t.db.sequelize.query('ALTER TABLE users MODIFY email VARCHAR(191) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci NULL');
    try {
      assert.equal((await User.findOne({ where: { email: lookalike } }))?.id, victim.id, 'the collation alone matches the look-alike');
      assert.equal(await userWithEmail(t.db, lookalike), null);
      await t.request('POST', '/api/auth/generate-reset-token', { json: { email: lookalike } });
      await settle();
      assert.equal(resetMails(lookalike).length, 0);
      assert.equal(resetMails(victim.email).length, 0);
      assert.equal((await t.request('POST', '/api/login', { json: { identifier: lookalike, password: victim.password } })).status, 401);
    } finally {
      await t.db.sequelize.query('ALTER TABLE users MODIFY email VARCHAR(191) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL');
    }
  });
});
