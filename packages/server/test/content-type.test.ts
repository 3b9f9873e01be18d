// A body in a type the server does not read (text/plain, none at all, XML) is a 415 naming the
// types the route reads, on every route that reads a body (the routes are read from the app, as
// the hostile sweep does): it used to be dropped, and the route answered about a missing field
// ('Choisis une stratégie' for a JSON run sent as text/plain). Routes without a body, GET and
// DELETE, and the payment callbacks (raw bodies, signed) are untouched (docs/api.md "Request bodies").
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { describe, it } from 'node:test';
import { PAYMENT_CALLBACK_PATHS, UPLOAD_ROUTE_PATHS } from '../src/app/config.js';
import { useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { appRoutes } from './support/hostile-sweep.js';
import { BREAKOUT_PY, OFFICIAL_RUN, funded, importStrategy, makeAdmin } from './support/work.js';

const t = useTestApp({ library: true });

/** A request as written: any method, any body, any content type or none. */
function send(method: string, path: string, key: string | undefined, body: string | undefined, type: string | undefined): Promise<{ status: number; detail?: string; body: any; text: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(t.url);
    const headers: Record<string, string> = {};
    if (key) headers['x-api-key'] = key;
    if (type !== undefined) headers['content-type'] = type;
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const req = httpRequest({ host: target.hostname, port: target.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: any;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode ?? 0, detail: parsed?.detail, body: parsed, text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const JSON_OR_FORM = 'JSON (application/json) ou formulaire (application/x-www-form-urlencoded)';
const WITH_MULTIPART = 'JSON (application/json), formulaire (application/x-www-form-urlencoded) ou formulaire multipart (multipart/form-data)';

/** Routes that read no body: a body of any type is ignored there, as before. */
const NO_BODY = new Set([
  'POST /api/logout',
  'POST /api/auth/resend-verification',
  'POST /api/profile/unsubscribe',
  'POST /api/admin/metrics/reset',
  'POST /api/admin/metrics/rebuild_from_users',
  'POST /api/admin/csv/reindex-output',
  'PATCH /api/admin/strategies/archive/restore-all',
]);
/** Routes that read their own raw bodies (uploads: 415 of their own below; payment callbacks: never). */
const RAW = new Set<string>([...PAYMENT_CALLBACK_PATHS, ...UPLOAD_ROUTE_PATHS]);
/** Routes that would end the caller's session or account: sent last, with keys of their own. */
const LAST = new Set(['POST /api/logout', 'POST /api/user/delete_account']);

describe(`content types of request bodies (${TEST_DIALECT})`, () => {
  it('every route that reads a body: 415 naming the types it reads, for text/plain, XML or no type; the others as without a body', async () => {
    const admin = await makeAdmin(t, 50);
    const imported = await importStrategy(t, admin.key, BREAKOUT_PY);
    assert.equal(imported.status, 201, imported.text);
    const strategyId = imported.body.id as string;
    const routes = appRoutes(t.app).filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && !RAW.has(r.path));
    assert.ok(routes.length > 25, `body routes read from the app: ${routes.length}`);
    const refused: string[] = [];
    for (const route of routes) {
      const name = `${route.method} ${route.path}`;
      if (LAST.has(name)) continue;
      const path = route.path.replace(':id', strategyId).replace(/:[A-Za-z_]+/g, 'x1');
      const json = JSON.stringify({ ...OFFICIAL_RUN, user_id: admin.id, email: 'a@b.example', name: 'n' });
      const plain = await send(route.method, path, admin.key, json, 'text/plain');
      if (NO_BODY.has(name)) {
        const none = await send(route.method, path, admin.key, undefined, undefined);
        assert.equal(plain.status, none.status, `${name}: a body it does not read changes nothing (${plain.text})`);
        assert.notEqual(plain.status, 415, name);
        continue;
      }
      const accepted = route.path === '/api/profile/update' ? WITH_MULTIPART : JSON_OR_FORM;
      assert.deepEqual([plain.status, plain.detail], [415, `Type de contenu non pris en charge (text/plain) : envoie le corps en ${accepted}.`], `${name}: ${plain.text}`);
      const xml = await send(route.method, path, admin.key, '<a>1</a>', 'application/xml; charset=utf-8');
      assert.deepEqual([xml.status, xml.detail], [415, `Type de contenu non pris en charge (application/xml) : envoie le corps en ${accepted}.`], `${name}: ${xml.text}`);
      const untyped = await send(route.method, path, admin.key, json, undefined);
      assert.deepEqual([untyped.status, untyped.detail], [415, `Type de contenu manquant (en-tête Content-Type) : envoie le corps en ${accepted}.`], `${name}: ${untyped.text}`);
      refused.push(name);
    }
    for (const name of ['POST /api/run_backtest', 'POST /api/login', 'POST /api/register', 'POST /api/admin/add_credit', 'PATCH /api/user/strategies/:id/rename', 'POST /api/compare/data', 'POST /api/payment/cancel']) {
      assert.ok(refused.includes(name), `${name} reads a body: ${refused.join(', ')}`);
    }
    // A hostile type: only its printable media type is named, and briefly.
    const odd = await send('POST', '/api/run_backtest', admin.key, '{}', `text/${'x'.repeat(300)}; charset=utf-8`);
    assert.equal(odd.status, 415);
    assert.ok(odd.detail!.length < 260, odd.detail);
  });

  it('JSON, url-encoded and (for the profile) multipart bodies are read as before; no body is no 415', async () => {
    const user = await funded(t, 10);
    const run = await t.request('POST', '/api/run_backtest', { key: user.key, json: OFFICIAL_RUN });
    assert.equal(run.status, 200, run.text);
    const charset = await send('POST', '/api/run_backtest', user.key, JSON.stringify(OFFICIAL_RUN), 'application/json; charset=utf-8');
    assert.equal(charset.status, 200, charset.text);
    const form = await send('POST', '/api/login', undefined, new URLSearchParams({ identifier: user.email, password: user.password }).toString(), 'application/x-www-form-urlencoded');
    assert.equal(form.status, 200, form.text);
    const multipart = new FormData();
    multipart.append('full_name', 'Camille Martin');
    const profile = await t.request('POST', '/api/profile/update', { key: user.key, form: multipart });
    assert.equal(profile.status, 200, profile.text);
    // A POST without a body, whatever its declared type: the route's own answer.
    for (const type of [undefined, 'text/plain', 'application/json']) {
      const empty = await send('POST', '/api/run_backtest', user.key, '', type);
      assert.deepEqual([empty.status, empty.detail], [400, 'Choisis une stratégie (officielle ou générée).'], String(type));
    }
  });

  it('GET and DELETE ignore a body of any type; uploads name the forms they read; payment callbacks read their raw bodies as before', async () => {
    const user = await funded(t, 0);
    const me = await send('GET', '/api/me', user.key, 'hello', 'text/plain');
    assert.equal(me.status, 200, me.text);
    const imported = await importStrategy(t, user.key, BREAKOUT_PY);
    assert.equal(imported.status, 201, imported.text);
    const deleted = await send('DELETE', `/api/user/strategies/${imported.body.id}`, user.key, '{"x":1}', 'text/plain');
    assert.deepEqual([deleted.status, deleted.body?.message], [200, 'Stratégie supprimée.']);
    const upload = await send('POST', '/api/user/strategies/import', user.key, '{"file":"x"}', 'application/json');
    assert.deepEqual([upload.status, upload.detail], [415, 'Type de contenu non pris en charge (application/json) : envoie le corps en formulaire multipart (multipart/form-data) ou formulaire (application/x-www-form-urlencoded).']);
    for (const path of PAYMENT_CALLBACK_PATHS) {
      for (const type of ['application/json', 'text/plain', undefined]) {
        const res = await send('POST', path, undefined, '{"id":"evt_1","type":"x"}', type);
        assert.notEqual(res.status, 415, `${path} ${type}: ${res.text}`);
        assert.ok(res.status < 500 || res.status === 503, `${path} ${type}: ${res.status} ${res.text}`);
      }
    }
    // Logout takes no body: a stray one changes nothing.
    const other = await funded(t, 0);
    const out = await send('POST', '/api/logout', other.key, '{"x":1}', 'text/plain');
    assert.equal(out.status, 200, out.text);
    // Account deletion reads the owner's current password, as set-password does: JSON or a form.
    const third = await funded(t, 0);
    const unread = await send('POST', '/api/user/delete_account', third.key, `{"current_password":"${third.password}"}`, 'text/plain');
    assert.deepEqual([unread.status, unread.detail], [415, `Type de contenu non pris en charge (text/plain) : envoie le corps en ${JSON_OR_FORM}.`]);
    const form = await send('POST', '/api/user/delete_account', third.key, new URLSearchParams({ current_password: third.password }).toString(), 'application/x-www-form-urlencoded');
    assert.equal(form.status, 200, form.text);
  });
});
