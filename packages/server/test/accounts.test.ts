import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { SIGNUP_CREDITS } from '@bt/core/catalogue';
import { hashPassword } from '../src/auth/secrets.js';
import { MSG } from '../src/app/messages.js';
import { TEST_PASSWORD_COST, newPerson, register, useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { makeAdmin } from './support/work.js';

const t = useTestApp();

describe(`register (${TEST_DIALECT})`, () => {
  it('creates an account and answers status, token and message', async () => {
    const person = newPerson();
    const res = await t.request('POST', '/api/register', { json: person });
    assert.equal(res.status, 201);
    assert.equal(res.body.status, 'success');
    assert.match(res.body.token, /^[A-Za-z0-9_-]{43}$/);
    // No SMTP server in this app: the verification link comes back in the answer, and (the
    // server's default) verifying through it grants no credits, so the message says so.
    assert.equal(res.body.message, MSG.registeredScreenLink);
    assert.equal(res.body.emailed, false);
    assert.match(res.body.verifyUrl, new RegExp(`^${t.url}/api/auth/verify-email/[A-Za-z0-9_-]{43}$`));
  });

  it('accepts a form-encoded body too', async () => {
    const person = newPerson();
    const res = await t.request('POST', '/api/register', {
      body: new URLSearchParams(person).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(res.status, 201, res.text);
  });

  it('refuses a missing field, a bad address, a bad username, a short password', async () => {
    for (const field of ['first_name', 'last_name', 'email', 'username', 'password'] as const) {
      const res = await t.request('POST', '/api/register', { json: { ...newPerson(), [field]: '' } });
      assert.equal(res.status, 400, field);
      assert.deepEqual(res.body, { detail: 'Tous les champs sont obligatoires.' });
    }
    // Lists, display names, groups and comments: the mailer would write to another mailbox than the text says.
    const lists = ['a,b@example.com', 'a;b@example.com', '"x"<me@example.com>', 'x:me@example.com;', 'me@example.com(x)', 'a\\b@example.com', 'a[1]@example.com', 'tab\t@example.com', 'nul\u0001@example.com'];
    for (const email of ['sans-arobase.example.com', 'a b@example.com', 'a@b', ...lists]) {
      const res = await t.request('POST', '/api/register', { json: { ...newPerson(), email } });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { detail: 'Adresse e-mail invalide.' });
    }
    const badName = await t.request('POST', '/api/register', { json: { ...newPerson(), username: 'a b' } });
    assert.equal(badName.status, 400);
    assert.match(badName.body.detail, /^Nom d'utilisateur invalide/);
    const short = await t.request('POST', '/api/register', { json: { ...newPerson(), password: '1234567' } });
    assert.equal(short.status, 400);
    assert.deepEqual(short.body, { detail: '8 caractères minimum.' });
  });

  it('refuses a taken address or username with 409, whatever their case', async () => {
    const first = await register(t);
    const sameEmail = await t.request('POST', '/api/register', { json: { ...newPerson(), email: first.email.toUpperCase() } });
    assert.equal(sameEmail.status, 409);
    assert.deepEqual(sameEmail.body, { detail: 'Un compte existe déjà avec cette adresse e-mail.' });
    const sameUsername = await t.request('POST', '/api/register', { json: { ...newPerson(), username: first.username.toUpperCase() } });
    assert.equal(sameUsername.status, 409);
    assert.deepEqual(sameUsername.body, { detail: "Ce nom d'utilisateur est déjà pris." });
  });

  it('refuses the admin username and the names that look like it or like the operator, whatever their case or letters', async () => {
    // Before the fix 'admin' could be registered once the admin account was deleted, and the next
    // start failed to create the admin on the unique username.
    for (const username of ['admin', 'ADMIN', 'Admin', 'adm1n', 'a.d.m.i.n', 'admin_', '-admin-', 'adrnin', 'ａｄｍｉｎ', '\u0430dmin', 'adm\u0131n', 'admìn', 'Administrateur', 'r00t', 'support', 'sys-admin']) {
      const person = newPerson();
      const res = await t.request('POST', '/api/register', { json: { ...person, username } });
      assert.ok(res.status === 409 || res.status === 400, `${username}: ${res.status}`);
      if (res.status === 409) assert.deepEqual(res.body, { detail: MSG.usernameTaken });
      assert.equal(await t.db.models.User.count({ where: { email: person.email } }), 0, username);
    }
    // Names that only contain one of them stay free.
    for (const username of ['admiral', 'administration', 'supporter']) {
      const res = await t.request('POST', '/api/register', { json: { ...newPerson(), username } });
      assert.equal(res.status, 201, `${username}: ${JSON.stringify(res.body)}`);
    }
  });

  it('stores the password as a salted scrypt hash and the key as its SHA-256 only', async () => {
    const user = await register(t);
    const [rows] = await t.db.sequelize.query('SELECT password_hash FROM users WHERE id = ?', { replacements: [user.id] });
    const stored = (rows as { password_hash: string }[])[0].password_hash;
    assert.match(stored, new RegExp(`^scrypt\\$${2 ** TEST_PASSWORD_COST.logN}\\$8\\$1\\$[A-Za-z0-9+/=]+\\$[A-Za-z0-9+/=]+$`));
    assert.ok(!stored.includes(user.password));
    assert.notEqual(stored, await hashPassword(user.password), 'salted: two hashes of one password differ');
    const [keys] = await t.db.sequelize.query('SELECT key_hash FROM api_keys WHERE user_id = ?', { replacements: [user.id] });
    const hashes = (keys as { key_hash: string }[]).map((k) => k.key_hash);
    assert.ok(hashes.includes(createHash('sha256').update(user.key).digest('hex')));
    assert.ok(!hashes.includes(user.key));
    // The clear key appears nowhere in the database.
    for (const table of ['users', 'api_keys', 'user_tokens']) {
      const [all] = await t.db.sequelize.query(`SELECT * FROM ${table}`);
      assert.ok(!JSON.stringify(all).includes(user.key), table);
    }
  });
});

describe(`login (${TEST_DIALECT})`, () => {
  it('accepts the e-mail or the username as identifier, and gives a new key each time', async () => {
    const user = await register(t);
    const byEmail = await t.request('POST', '/api/login', { json: { identifier: `  ${user.email.toUpperCase()}`, password: user.password } });
    assert.equal(byEmail.status, 200);
    assert.deepEqual(Object.keys(byEmail.body).sort(), ['apiKey', 'message', 'status', 'token']);
    assert.equal(byEmail.body.message, 'Connexion réussie.');
    const byName = await t.request('POST', '/api/login', { json: { identifier: user.username, password: user.password } });
    assert.equal(byName.status, 200);
    assert.notEqual(byName.body.token, byEmail.body.token);
    const me = await t.request('GET', '/api/me', { key: byName.body.token });
    assert.equal(me.body.email, user.email);
  });

  it('answers 401 "Identifiants invalides" for a wrong password or an unknown account', async () => {
    const user = await register(t);
    for (const json of [
      { identifier: user.email, password: 'mauvais-mot-de-passe' },
      { identifier: 'personne@example.com', password: 'whatever123' },
      { identifier: 'personne', password: 'whatever123' },
    ]) {
      const res = await t.request('POST', '/api/login', { json });
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, { detail: 'Identifiants invalides' });
    }
  });

  it('answers 400 when the identifier or the password is missing', async () => {
    const res = await t.request('POST', '/api/login', { json: { identifier: '   ', password: 'x' } });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { detail: 'Identifiant et mot de passe obligatoires.' });
  });
});

describe(`keys and /api/me (${TEST_DIALECT})`, () => {
  it('reads the key from X-API-Key and Authorization: Bearer; a key in the query string is ignored outside download links', async () => {
    const user = await register(t);
    const variants: [string, Record<string, string>][] = [
      ['/api/me', { 'x-api-key': user.key }],
      ['/api/me', { authorization: `Bearer ${user.key}` }],
    ];
    for (const [path, headers] of variants) {
      const res = await t.request('GET', path, { headers });
      assert.equal(res.status, 200, path + JSON.stringify(headers));
      assert.equal(res.body.id, user.id);
    }
    for (const name of ['token', 'apiKey']) {
      const res = await t.request('GET', `/api/me?${name}=${encodeURIComponent(user.key)}`);
      assert.equal(res.status, 401, name);
      assert.deepEqual(res.body, { detail: 'Non authentifié' });
    }
  });

  it('answers every user field of the spec, and nothing secret', async () => {
    const user = await register(t);
    const me = await t.request('GET', '/api/me', { key: user.key });
    assert.equal(me.status, 200);
    const b = me.body;
    assert.equal(b.first_name, user.first_name);
    assert.equal(b.last_name, user.last_name);
    assert.equal(b.name, `${user.first_name} ${user.last_name}`);
    assert.equal(b.full_name, b.name);
    assert.equal(b.email, user.email);
    assert.equal(b.username, user.username);
    assert.equal(b.role, 'user');
    assert.equal(b.is_admin, false);
    assert.equal(b.plan, 'free');
    assert.equal(b.credits, 0, 'sign-up credits wait for the verified address');
    assert.equal(b.has_discount, false);
    assert.equal(b.email_verified, false);
    assert.deepEqual(b.subscription, { plan: 'free', renew_date: null, auto_renew: false, provider: null, backtest_priority: false });
    assert.deepEqual(b.purchase_history, []);
    const text = JSON.stringify(b);
    assert.ok(!/hash|password_/i.test(Object.keys(b).join(',')), 'no hash field');
    assert.ok(!text.includes('scrypt$'));
  });

  it('answers 401 "Non authentifié" without a key and a distinct 401 for a bad key', async () => {
    const none = await t.request('GET', '/api/me');
    assert.equal(none.status, 401);
    assert.deepEqual(none.body, { detail: 'Non authentifié' });
    const bad = await t.request('GET', '/api/me', { key: 'pas-une-cle' });
    assert.equal(bad.status, 401);
    assert.deepEqual(bad.body, { detail: 'Clé API invalide ou expirée.' });
  });
});

describe(`admin ping (${TEST_DIALECT})`, () => {
  it('answers 200 to an admin, 403 to a user, 401 to nobody', async () => {
    const admin = await makeAdmin(t);
    const ok = await t.request('GET', '/api/admin/ping', { key: admin.key });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.admin, true);
    const me = await t.request('GET', '/api/me', { key: admin.key });
    assert.equal(me.body.role, 'admin');
    assert.equal(me.body.is_admin, true);

    const user = await register(t);
    const denied = await t.request('GET', '/api/admin/ping', { key: user.key });
    assert.equal(denied.status, 403);
    assert.deepEqual(denied.body, { detail: 'Accès réservé aux administrateurs.' });
    const anonymous = await t.request('GET', '/api/admin/ping');
    assert.equal(anonymous.status, 401);
    // Unknown admin paths are refused before anything else too.
    const hidden = await t.request('GET', '/api/admin/whatever', { key: user.key });
    assert.equal(hidden.status, 403);
  });
});
