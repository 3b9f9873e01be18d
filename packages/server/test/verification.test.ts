import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SIGNUP_CREDITS } from '@bt/core/catalogue';
import { MSG } from '../src/app/messages.js';
import { register, newPerson, startTestApp, type TestApp } from './support/app.js';
import { TEST_DIALECT, openTestDatabase, type TestDatabase } from './support/db.js';
import { recipients, startSmtp, type Inbox } from './support/smtp.js';

let tdb: TestDatabase;
let inbox: Inbox;
let t: TestApp; // mails through the local SMTP server
let noMail: TestApp; // no SMTP configured

before(async () => {
  tdb = await openTestDatabase();
  inbox = await startSmtp();
  t = await startTestApp(tdb.db, { smtpUrl: inbox.url });
  noMail = await startTestApp(tdb.db);
});
after(async () => {
  await t.close();
  await noMail.close();
  await inbox.close();
  await tdb.drop();
});

function linkIn(text: string, pattern: RegExp): string {
  const match = pattern.exec(text);
  assert.ok(match, `no link matching ${pattern} in:\n${text}`);
  return match[0];
}

const verifyLink = /http:\/\/127\.0\.0\.1:\d+\/api\/auth\/verify-email\/[A-Za-z0-9_-]{43}/;

describe(`e-mail verification through SMTP (${TEST_DIALECT})`, () => {
  it('mails a link at sign-up; the link verifies, grants the sign-up credits once and redirects to /profile?verified=1 (a second click: &credits=already)', async () => {
    const user = await register(t);
    assert.equal(user.response.emailed, true);
    assert.equal(user.response.verifyUrl, undefined, 'with SMTP the link is only in the mail');
    const mail = await inbox.waitFor((m) => recipients(m).includes(user.email));
    assert.equal(mail.subject, 'Confirme ton adresse e-mail');
    assert.match(mail.text ?? '', new RegExp(`recevoir tes ${SIGNUP_CREDITS} crédits offerts`));
    const link = linkIn(mail.text ?? '', verifyLink);

    const first = await fetch(link, { redirect: 'manual' });
    assert.equal(first.status, 302);
    assert.equal(first.headers.get('location'), 'http://web.bt.test/profile?verified=1');
    const me = await t.request('GET', '/api/me', { key: user.key });
    assert.equal(me.body.email_verified, true);
    assert.equal(me.body.credits, SIGNUP_CREDITS);
    assert.equal(me.body.purchase_history.length, 1);
    assert.equal(me.body.purchase_history[0].credits, SIGNUP_CREDITS);
    assert.equal(me.body.purchase_history[0].type, 'verification');

    // A second click still says verified, and grants nothing more.
    const again = await fetch(link, { redirect: 'manual' });
    assert.equal(again.headers.get('location'), 'http://web.bt.test/profile?verified=1&credits=already');
    const after = await t.request('GET', '/api/me', { key: user.key });
    assert.equal(after.body.credits, SIGNUP_CREDITS);
    const rows = await tdb.db.models.CreditEntry.count({ where: { userId: user.id } });
    assert.equal(rows, 1);
  });

  it('redirects to /profile?verified=0 for an unknown or expired link', async () => {
    const unknown = await t.request('GET', '/api/auth/verify-email/inconnu');
    assert.equal(unknown.status, 302);
    assert.equal(unknown.headers.get('location'), 'http://web.bt.test/profile?verified=0');

    const user = await register(t);
    const mail = await inbox.waitFor((m) => recipients(m).includes(user.email));
    const link = linkIn(mail.text ?? '', verifyLink);
    t.clock.advance(48 * 3600_000 + 1000);
    const expired = await fetch(link, { redirect: 'manual' });
    assert.equal(expired.headers.get('location'), 'http://web.bt.test/profile?verified=0');
    const me = await t.request('GET', '/api/me', { key: user.key });
    assert.equal(me.body.email_verified, false);
    assert.equal(me.body.credits, 0);
  });

  it('resend-verification mails a new link that replaces the old one', async () => {
    const user = await register(t);
    const firstMail = await inbox.waitFor((m) => recipients(m).includes(user.email));
    const oldLink = linkIn(firstMail.text ?? '', verifyLink);
    const res = await t.request('POST', '/api/auth/resend-verification', { key: user.key });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'success', emailed: true, message: 'Nouveau lien de vérification envoyé.' });
    const second = await inbox.waitFor((m) => recipients(m).includes(user.email) && linkIn(m.text ?? '', verifyLink) !== oldLink);
    const newLink = linkIn(second.text ?? '', verifyLink);
    const stale = await fetch(oldLink, { redirect: 'manual' });
    assert.equal(stale.headers.get('location'), 'http://web.bt.test/profile?verified=0');
    const fresh = await fetch(newLink, { redirect: 'manual' });
    assert.equal(fresh.headers.get('location'), 'http://web.bt.test/profile?verified=1');
    const again = await t.request('POST', '/api/auth/resend-verification', { key: user.key });
    assert.equal(again.status, 409);
    assert.deepEqual(again.body, { detail: 'Adresse déjà vérifiée.' });
  });

  it('resend-verification needs a key', async () => {
    const res = await t.request('POST', '/api/auth/resend-verification');
    assert.equal(res.status, 401);
    assert.deepEqual(res.body, { detail: 'Non authentifié' });
  });

  it('says so when the SMTP server fails', async () => {
    const user = await register(t);
    await inbox.waitFor((m) => recipients(m).includes(user.email));
    const broken = await startTestApp(tdb.db, { smtpUrl: 'smtp://127.0.0.1:1' });
    try {
      const res = await broken.request('POST', '/api/auth/resend-verification', { key: user.key });
      assert.equal(res.status, 502);
      assert.deepEqual(res.body, { detail: "Impossible de générer l'e-mail de vérification." });
      // Registration itself still succeeds; the answer says the mail did not go out.
      const reg = await broken.request('POST', '/api/register', { json: newPerson() });
      assert.equal(reg.status, 201);
      assert.equal(reg.body.emailed, false);
      assert.equal(reg.body.verifyUrl, undefined);
    } finally {
      await broken.close();
    }
  });
});

describe(`e-mail verification without SMTP (${TEST_DIALECT})`, () => {
  it('returns verifyUrl from resend-verification; the link verifies the address but mints no credits (the default)', async () => {
    const user = await register(noMail);
    const res = await noMail.request('POST', '/api/auth/resend-verification', { key: user.key });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'success');
    assert.equal(res.body.emailed, false);
    assert.match(res.body.message, /pas configuré/);
    const follow = await fetch(res.body.verifyUrl, { redirect: 'manual' });
    assert.equal(follow.headers.get('location'), 'http://web.bt.test/profile?verified=1&credits=screen', 'the profile page must not announce credits');
    const me = await noMail.request('GET', '/api/me', { key: user.key });
    assert.equal(me.body.email_verified, true);
    assert.equal(me.body.credits, 0, 'a link shown on screen proves nothing about the address');
    const again = await fetch(res.body.verifyUrl, { redirect: 'manual' });
    assert.equal(again.headers.get('location'), 'http://web.bt.test/profile?verified=1&credits=screen', 'a second click says the same');
    const rows = await tdb.db.models.UserToken.findAll({ where: { userId: user.id, purpose: 'verify_email' } });
    assert.ok(rows.length >= 2 && rows.every((r) => r.delivery === 'screen'));
  });

  it('grants the sign-up credits through the on-screen link when the server is set to (VERIFY_ON_SCREEN=credits)', async () => {
    const local = await startTestApp(tdb.db, { config: { screenVerification: 'credits' } });
    try {
      const user = await register(local);
      assert.equal(user.response.message, `Compte créé. Vérifie ton adresse e-mail pour recevoir tes ${SIGNUP_CREDITS} crédits offerts.`);
      const follow = await fetch(user.response.verifyUrl, { redirect: 'manual' });
      assert.equal(follow.headers.get('location'), 'http://web.bt.test/profile?verified=1');
      const me = await local.request('GET', '/api/me', { key: user.key });
      assert.equal(me.body.credits, SIGNUP_CREDITS);
    } finally {
      await local.close();
    }
  });

  it('shows no link at all when set off (VERIFY_ON_SCREEN=off): registration works, resend answers 503', async () => {
    const off = await startTestApp(tdb.db, { config: { screenVerification: 'off' } });
    try {
      const user = await register(off);
      assert.equal(user.response.verifyUrl, undefined);
      const res = await off.request('POST', '/api/auth/resend-verification', { key: user.key });
      assert.equal(res.status, 503);
      assert.deepEqual(res.body, { detail: MSG.verificationUnavailable });
    } finally {
      await off.close();
    }
  });

  it('a link that was mailed still grants the credits once mail is off again (delivery is recorded per link)', async () => {
    const user = await register(t);
    const mail = await inbox.waitFor((m) => recipients(m).includes(user.email));
    const link = linkIn(mail.text ?? '', verifyLink);
    const follow = await fetch(link, { redirect: 'manual' });
    assert.equal(follow.headers.get('location'), 'http://web.bt.test/profile?verified=1');
    const me = await noMail.request('GET', '/api/me', { key: user.key });
    assert.equal(me.body.credits, SIGNUP_CREDITS);
  });
});
