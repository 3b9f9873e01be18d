import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { register, startTestApp, type TestApp } from './support/app.js';
import { TEST_DIALECT, openTestDatabase, type TestDatabase } from './support/db.js';
import { recipients, startSmtp, type Inbox } from './support/smtp.js';

let tdb: TestDatabase;
let inbox: Inbox;
let t: TestApp;

before(async () => {
  tdb = await openTestDatabase();
  inbox = await startSmtp();
  t = await startTestApp(tdb.db, { smtpUrl: inbox.url });
});
after(async () => {
  await t.close();
  await inbox.close();
  await tdb.drop();
});

const CONFIRMATION = 'Si un compte existe pour cette adresse, un lien de reset a été envoyé.';
const resetLink = /http:\/\/web\.bt\.test\/reset-password\/([A-Za-z0-9_-]{43})/;

async function requestReset(email: string) {
  return t.request('POST', '/api/auth/generate-reset-token', { json: { email } });
}

async function tokenFor(email: string): Promise<string> {
  const mail = await inbox.waitFor((m) => recipients(m).includes(email) && m.subject === 'Réinitialisation de ton mot de passe');
  const match = resetLink.exec(mail.text ?? '');
  assert.ok(match, mail.text);
  return match[1];
}

describe(`password reset (${TEST_DIALECT})`, () => {
  it('answers the same whether or not the address has an account, and mails only an existing one', async () => {
    const user = await register(t);
    const known = await requestReset(user.email);
    const unknown = await requestReset('personne-ici@example.com');
    const malformed = await requestReset('pas-une-adresse');
    for (const res of [known, unknown, malformed]) {
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { status: 'success', message: CONFIRMATION });
    }
    assert.equal(known.text, unknown.text);
    await tokenFor(user.email);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(inbox.messages.filter((m) => recipients(m).includes('personne-ici@example.com')).length, 0);
  });

  it('requires the e-mail field', async () => {
    const res = await t.request('POST', '/api/auth/generate-reset-token', { json: {} });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { detail: 'Adresse e-mail obligatoire.' });
  });

  it('sets the new password once: the token is single use, old sessions end', async () => {
    const user = await register(t);
    await requestReset(user.email);
    const token = await tokenFor(user.email);

    const short = await t.request('POST', `/api/auth/reset-password/${token}`, { json: { new_password: 'court' } });
    assert.equal(short.status, 400);
    assert.deepEqual(short.body, { detail: '8 caractères minimum.' });
    const mismatch = await t.request('POST', `/api/auth/reset-password/${token}`, { json: { new_password: 'nouveau-mdp-1', confirm_password: 'autre-chose-2' } });
    assert.equal(mismatch.status, 400);
    assert.deepEqual(mismatch.body, { detail: 'Les mots de passe ne correspondent pas.' });

    const ok = await t.request('POST', `/api/auth/reset-password/${token}`, { json: { new_password: 'nouveau-mdp-1' } });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.status, 'success');

    const reuse = await t.request('POST', `/api/auth/reset-password/${token}`, { json: { new_password: 'encore-un-autre' } });
    assert.equal(reuse.status, 400);
    assert.deepEqual(reuse.body, { detail: 'Lien invalide ou expiré.' });

    const oldKey = await t.request('GET', '/api/me', { key: user.key });
    assert.equal(oldKey.status, 401, 'a reset ends the sessions opened before it');
    const oldPassword = await t.request('POST', '/api/login', { json: { identifier: user.email, password: user.password } });
    assert.equal(oldPassword.status, 401);
    const newPassword = await t.request('POST', '/api/login', { json: { identifier: user.email, password: 'nouveau-mdp-1' } });
    assert.equal(newPassword.status, 200);
  });

  it('a link asked before a password change, or before an address change, no longer works after it', async () => {
    // The owner who changes a password, or moves the account off a mailbox they no longer trust,
    // must not leave behind a link that takes the account back.
    const changed = await register(t);
    await requestReset(changed.email);
    const beforePassword = await tokenFor(changed.email);
    const set = await t.request('POST', '/api/profile/set-password', { key: changed.key, json: { current_password: changed.password, new_password: 'change-par-moi-1' } });
    assert.equal(set.status, 200, set.text);
    const late = await t.request('POST', `/api/auth/reset-password/${beforePassword}`, { json: { new_password: 'pris-par-un-autre' } });
    assert.deepEqual([late.status, late.body], [400, { detail: 'Lien invalide ou expiré.' }]);
    assert.equal((await t.request('POST', '/api/login', { json: { identifier: changed.email, password: 'change-par-moi-1' } })).status, 200);

    const moved = await register(t);
    await requestReset(moved.email);
    const beforeMove = await tokenFor(moved.email);
    const newAddress = `moved-${moved.email}`;
    const update = await t.request('POST', '/api/profile/update', { key: moved.key, json: { email: newAddress, password: moved.password } });
    assert.equal(update.status, 200, update.text);
    const stale = await t.request('POST', `/api/auth/reset-password/${beforeMove}`, { json: { new_password: 'pris-par-un-autre' } });
    assert.deepEqual([stale.status, stale.body], [400, { detail: 'Lien invalide ou expiré.' }]);
    assert.equal((await t.request('POST', '/api/login', { json: { identifier: newAddress, password: moved.password } })).status, 200);
    // A link asked after the change works.
    await requestReset(newAddress);
    const fresh = await tokenFor(newAddress);
    assert.equal((await t.request('POST', `/api/auth/reset-password/${fresh}`, { json: { new_password: 'apres-le-changement' } })).status, 200);
  });

  it('links of a deleted account take nothing: not the account, not a new account on its address', async () => {
    const gone = await register(t);
    const verifyMail = await inbox.waitFor((m) => recipients(m).includes(gone.email) && m.subject === 'Confirme ton adresse e-mail');
    const verifyToken = /verify-email\/([A-Za-z0-9_-]{43})/.exec(verifyMail.text ?? '')![1];
    await requestReset(gone.email);
    const resetToken = await tokenFor(gone.email);
    const deleted = await t.request('POST', '/api/user/delete_account', { key: gone.key, json: { current_password: gone.password } });
    assert.equal(deleted.status, 200, deleted.text);
    // The same address registered again: another account, which the old links must not reach.
    const again = await register(t, { ...gone, username: `${gone.username}b` });
    const reset = await t.request('POST', `/api/auth/reset-password/${resetToken}`, { json: { new_password: 'pris-par-un-autre' } });
    assert.deepEqual([reset.status, reset.body], [400, { detail: 'Lien invalide ou expiré.' }]);
    const verify = await t.request('GET', `/api/auth/verify-email/${verifyToken}`);
    assert.equal(verify.headers.get('location'), 'http://web.bt.test/profile?verified=0');
    const me = await t.request('GET', '/api/me', { key: again.key });
    assert.equal(me.body.email_verified, false, 'the new account is not verified by the old link');
    assert.equal((await t.request('POST', '/api/login', { json: { identifier: gone.email, password: gone.password } })).status, 200);
  });

  it('a verification link of the old address does not verify the new one (no verified address one does not own)', async () => {
    // Register with one's own mailbox, move the account to someone else's address, click the first
    // link: the account would hold another person's address as verified, and that person's Google
    // sign-in would then be linked into it, password and sessions kept.
    const mover = await register(t);
    const mail = await inbox.waitFor((m) => recipients(m).includes(mover.email) && m.subject === 'Confirme ton adresse e-mail');
    const ownLink = /verify-email\/([A-Za-z0-9_-]{43})/.exec(mail.text ?? '')![1];
    const victim = `victime-${mover.email}`;
    const update = await t.request('POST', '/api/profile/update', { key: mover.key, json: { email: victim, password: mover.password } });
    assert.equal(update.status, 200, update.text);
    const click = await t.request('GET', `/api/auth/verify-email/${ownLink}`);
    assert.equal(click.headers.get('location'), 'http://web.bt.test/profile?verified=0');
    const me = await t.request('GET', '/api/me', { key: mover.key });
    assert.deepEqual([me.body.email, me.body.email_verified], [victim, false]);
  });

  it('two concurrent uses of one token: exactly one wins', async () => {
    const user = await register(t);
    await requestReset(user.email);
    const token = await tokenFor(user.email);
    const results = await Promise.all(
      ['parallele-un-1', 'parallele-deux-2', 'parallele-trois-3'].map((p) => t.request('POST', `/api/auth/reset-password/${token}`, { json: { new_password: p } })),
    );
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 400, 400]);
  });

  it('refuses an expired token', async () => {
    const user = await register(t);
    await requestReset(user.email);
    const token = await tokenFor(user.email);
    t.clock.advance(60 * 60_000 + 1000);
    const res = await t.request('POST', `/api/auth/reset-password/${token}`, { json: { new_password: 'trop-tard-123' } });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { detail: 'Lien invalide ou expiré.' });
  });

  it('refuses an unknown token, and a verification token used as a reset token', async () => {
    const res = await t.request('POST', '/api/auth/reset-password/nimporte-quoi', { json: { new_password: 'whatever-123' } });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { detail: 'Lien invalide ou expiré.' });
    const user = await register(t);
    const mail = await inbox.waitFor((m) => recipients(m).includes(user.email) && m.subject === 'Confirme ton adresse e-mail');
    const verifyToken = /verify-email\/([A-Za-z0-9_-]{43})/.exec(mail.text ?? '')![1];
    const cross = await t.request('POST', `/api/auth/reset-password/${verifyToken}`, { json: { new_password: 'whatever-123' } });
    assert.equal(cross.status, 400);
  });

  it('stores reset tokens hashed', async () => {
    const user = await register(t);
    await requestReset(user.email);
    const token = await tokenFor(user.email);
    const [rows] = await tdb.db.sequelize.query('SELECT token_hash FROM user_tokens WHERE user_id = ?', { replacements: [user.id] });
    assert.ok(rows.length >= 2);
    assert.ok(!JSON.stringify(rows).includes(token));
  });
});
