import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { register, startTestApp, type TestApp } from './support/app.js';
import { TEST_DIALECT, openTestDatabase, type TestDatabase } from './support/db.js';
import { recipients, startSmtp, type Inbox } from './support/smtp.js';

let tdb: TestDatabase;
let inbox: Inbox;
let t: TestApp;
let noMail: TestApp;

before(async () => {
  tdb = await openTestDatabase();
  inbox = await startSmtp();
  t = await startTestApp(tdb.db, { smtpUrl: inbox.url, config: { supportEmail: 'support@bt.test' } });
  noMail = await startTestApp(tdb.db, { config: { supportEmail: 'support@bt.test' } });
});
after(async () => {
  await t.close();
  await noMail.close();
  await inbox.close();
  await tdb.drop();
});

const message = (overrides: Record<string, unknown> = {}) => ({
  type: 'feedback',
  firstName: 'Hugo',
  lastName: 'Bernard',
  email: 'hugo@example.com',
  message: 'Le filtre RSI ne garde pas ma valeur après rechargement.',
  meta: { path: '/backtest', ts: '2026-01-15T10:00:00Z' },
  ...overrides,
});

describe(`POST /api/support (${TEST_DIALECT})`, () => {
  it('stores the message and mails it to support with the sender as reply-to', async () => {
    const res = await t.request('POST', '/api/support', { json: message() });
    assert.equal(res.status, 201);
    assert.deepEqual(res.body, { status: 'success', emailed: true, message: 'Message envoyé. Merci !' });
    const mail = await inbox.waitFor((m) => recipients(m).includes('support@bt.test'));
    assert.equal(mail.subject, '[Support] Améliorations & bugs — Hugo Bernard');
    assert.equal(mail.replyTo?.value[0].address, 'hugo@example.com');
    assert.match(mail.text ?? '', /Le filtre RSI ne garde pas ma valeur/);
    assert.match(mail.text ?? '', /Page : \/backtest/);
    const row = await tdb.db.models.SupportMessage.findOne({ where: { email: 'hugo@example.com' }, order: [['id', 'DESC']] });
    assert.equal(row?.type, 'feedback');
    assert.equal(row?.emailed, true);
    assert.deepEqual(JSON.parse(row!.meta!), { path: '/backtest', ts: '2026-01-15T10:00:00Z' });
  });

  it('links the message to the signed-in sender', async () => {
    const user = await register(t);
    const res = await t.request('POST', '/api/support', { json: message({ type: 'contact', email: user.email }), key: user.key });
    assert.equal(res.status, 201);
    const row = await tdb.db.models.SupportMessage.findOne({ where: { email: user.email } });
    assert.equal(row?.userId, user.id);
  });

  it('refuses a missing field, an address without @, an unknown type, a message too long', async () => {
    for (const field of ['firstName', 'lastName', 'email', 'message']) {
      const res = await t.request('POST', '/api/support', { json: message({ [field]: '  ' }) });
      assert.equal(res.status, 400, field);
      assert.deepEqual(res.body, { detail: 'Tous les champs sont obligatoires.' });
    }
    const noAt = await t.request('POST', '/api/support', { json: message({ email: 'hugo.example.com' }) });
    assert.equal(noAt.status, 400);
    assert.deepEqual(noAt.body, { detail: 'Merci d’entrer une adresse e-mail valide (doit contenir un @).' });
    const type = await t.request('POST', '/api/support', { json: message({ type: 'spam' }) });
    assert.equal(type.status, 400);
    assert.deepEqual(type.body, { detail: 'Type de message invalide (contact ou feedback).' });
    const long = await t.request('POST', '/api/support', { json: message({ message: 'x'.repeat(5001) }) });
    assert.equal(long.status, 400);
    assert.deepEqual(long.body, { detail: 'Message trop long (5000 caractères maximum).' });
  });

  it('keeps a message whose page or time is huge, both clipped (a MySQL TEXT holds 64 KB), and refuses long names by field', async () => {
    // 70,000 characters of meta were a 500 on MariaDB and the message was lost.
    const huge = { path: '/backtest/' + 'é'.repeat(70_000), ts: '€'.repeat(70_000) };
    const res = await noMail.request('POST', '/api/support', { json: message({ email: 'meta-longue@example.com', meta: huge }) });
    assert.equal(res.status, 201, res.text);
    const row = await tdb.db.models.SupportMessage.findOne({ where: { email: 'meta-longue@example.com' } });
    assert.equal(row?.message, 'Le filtre RSI ne garde pas ma valeur après rechargement.');
    assert.deepEqual(JSON.parse(row!.meta!), { path: huge.path.slice(0, 500), ts: huge.ts.slice(0, 40) });
    const numeric = await noMail.request('POST', '/api/support', { json: message({ email: 'meta-nombre@example.com', meta: { path: '/', ts: 1768471200000 } }) });
    assert.equal(numeric.status, 201);
    const kept = await tdb.db.models.SupportMessage.findOne({ where: { email: 'meta-nombre@example.com' } });
    assert.deepEqual(JSON.parse(kept!.meta!), { path: '/', ts: 1768471200000 });
    for (const [field, detail] of [
      ['firstName', 'Prénom trop long (100 caractères maximum).'],
      ['lastName', 'Nom trop long (100 caractères maximum).'],
    ]) {
      const long = await noMail.request('POST', '/api/support', { json: message({ [field]: 'é'.repeat(101) }) });
      assert.deepEqual([long.status, long.body.detail], [400, detail], field);
    }
    const email = await noMail.request('POST', '/api/support', { json: message({ email: `${'a'.repeat(190)}@example.com` }) });
    assert.deepEqual([email.status, email.body.detail], [400, 'Merci d’entrer une adresse e-mail valide (doit contenir un @).']);
  });

  it('stores the message and says it was not mailed when no SMTP server is configured', async () => {
    const res = await noMail.request('POST', '/api/support', { json: message({ email: 'sans-smtp@example.com' }) });
    assert.equal(res.status, 201);
    assert.equal(res.body.emailed, false);
    const row = await tdb.db.models.SupportMessage.findOne({ where: { email: 'sans-smtp@example.com' } });
    assert.equal(row?.emailed, false);
  });
});
