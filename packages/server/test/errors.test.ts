import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import Koa from 'koa';
import { errorMiddleware } from '../src/app/errorMiddleware.js';
import { importFor } from '../src/app/optional-module.js';
import { InsufficientCreditsError } from '../src/credits/index.js';
import { StoragePathError } from '../src/storage/index.js';
import { register, useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { makeAdmin } from './support/work.js';

const t = useTestApp({ config: { bodyLimitBytes: 4096 } });

/** Nothing of the machinery leaks: no stack frames, no SQL, no file paths, no library English. */
function assertClean(text: string) {
  assert.doesNotMatch(text, /\bat .+\(.+:\d+:\d+\)|node_modules|\/src\/|\.ts:\d+/, 'stack trace');
  assert.doesNotMatch(text, /\b(SELECT|INSERT|UPDATE|DELETE)\b.+\b(FROM|INTO|SET)\b|Sequelize|SQLITE_|ER_[A-Z_]+/i, 'SQL');
}

describe(`errors and health (${TEST_DIALECT})`, () => {
  it('GET /api/health answers ok with the database reachable', async () => {
    const res = await t.request('GET', '/api/health');
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'ok');
    assert.equal(res.body.database, 'ok');
    assert.equal(res.body.dialect, TEST_DIALECT);
    assert.equal(res.body.runtime, 'node');
    assert.equal(res.headers.get('cache-control'), 'no-store');
  });

  it('answers JSON {detail} for an unknown path and a wrong method', async () => {
    const missing = await t.request('GET', '/api/nothing-here');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { detail: 'Ressource introuvable.' });
    const method = await t.request('GET', '/api/login');
    assert.equal(method.status, 405);
    assert.deepEqual(method.body, { detail: 'Méthode non autorisée.' });
  });

  it('answers 400 for malformed JSON and 413 for a body over the limit', async () => {
    const bad = await t.request('POST', '/api/login', { body: '{"identifier": ', headers: { 'content-type': 'application/json' } });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body, { detail: 'Corps de requête invalide.' });
    assertClean(bad.text);
    const big = await t.request('POST', '/api/support', { json: { message: 'x'.repeat(10_000) } });
    assert.equal(big.status, 413);
    assert.deepEqual(big.body, { detail: 'Requête trop volumineuse.' });
  });

  it('ignores extra types in fields instead of crashing', async () => {
    const res = await t.request('POST', '/api/register', { json: { first_name: { $gt: '' }, last_name: ['a'], email: 42, username: null, password: true } });
    assert.equal(res.status, 400);
    assertClean(res.text);
  });

  it('refuses a NUL character in a body or a query field with a 400 naming the field, before any query', async () => {
    const login = await t.request('POST', '/api/login', { json: { identifier: 'a\u0000b', password: 'x' } });
    assert.equal(login.status, 400);
    assert.deepEqual(login.body, { detail: 'Champ « identifier » : caractère nul (U+0000) refusé.' });
    const admin = await makeAdmin(t);
    const users = await t.request('GET', '/api/admin/get_users?q=%00', { key: admin.key });
    assert.equal(users.status, 400);
    assert.deepEqual(users.body, { detail: 'Champ « q » : caractère nul (U+0000) refusé.' });
    assert.ok(!t.logs.some((l) => /failed:/.test(l)), 'nothing reached the database as an error');
  });

  it('answers 500 "Erreur serveur" without stack or SQL when the database fails, and logs the cause', async () => {
    const user = await register(t);
    await t.db.sequelize.getQueryInterface().dropTable('support_messages');
    const res = await t.request('POST', '/api/support', {
      json: { type: 'contact', firstName: 'A', lastName: 'B', email: 'a@b.fr', message: 'Bonjour' },
      key: user.key,
    });
    assert.equal(res.status, 500);
    assert.deepEqual(res.body, { detail: 'Erreur serveur' });
    assertClean(res.text);
    assert.ok(t.logs.some((l) => /POST \/api\/support failed/.test(l) && /support_messages/.test(l)), 'the cause is in the server log: ' + t.logs.join('\n'));
  });
});

describe('errors raised by services of later resources', () => {
  it('maps a refused spend to 402 and a bad storage path to 400, in French', async () => {
    const app = new Koa();
    const logs: string[] = [];
    app.use(errorMiddleware((m) => logs.push(m)));
    app.use(async (ctx) => {
      if (ctx.path === '/spend') throw new InsufficientCreditsError(2, 1);
      if (ctx.path === '/file') throw new StoragePathError('../etc/passwd', "'..' segment");
    });
    const server = createServer(app.callback()).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const spend = await fetch(`${base}/spend`);
      assert.equal(spend.status, 402);
      assert.deepEqual(await spend.json(), { detail: 'Crédits insuffisants : 2 crédits nécessaires, solde 1.' });
      const file = await fetch(`${base}/file`);
      assert.equal(file.status, 400);
      assert.deepEqual(await file.json(), { detail: 'Chemin de fichier invalide.' });
      assert.deepEqual(logs, []);
    } finally {
      server.close();
    }
  });

  it('answers 503 with a French detail when a feature cannot load its module, and logs which one', async () => {
    const app = new Koa();
    const logs: string[] = [];
    app.use(errorMiddleware((m) => logs.push(m)));
    app.use(async () => {
      await importFor('invoice PDFs', 'pdfkit', () => Promise.reject(new Error("Cannot find package 'pdfkit'")));
    });
    const server = createServer(app.callback()).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/invoice`);
      assert.equal(res.status, 503);
      const text = await res.text();
      assert.deepEqual(JSON.parse(text), { detail: 'Cette fonction est momentanément indisponible sur ce serveur. Réessaie plus tard.' });
      assertClean(text);
      assert.equal(logs.length, 1);
      assert.match(logs[0], /^GET \/invoice failed: OptionalModuleError: invoice PDFs needs pdfkit, which could not be loaded: Cannot find package 'pdfkit'/);
    } finally {
      server.close();
    }
  });
});
