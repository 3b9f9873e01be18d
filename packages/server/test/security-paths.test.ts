import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminRoutes } from '../src/admin/routes.js';
import { guardPathOf } from '../src/app/paths.js';
import { register, useTestApp, type TestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { balance, makeAdmin } from './support/work.js';

const t = useTestApp();

/** Every route of the admin router, read from the router itself so a new route cannot be forgotten. */
function adminRouteList(app: TestApp): { method: string; path: string }[] {
  const router = adminRoutes(app.app.services, app.app.deps);
  const routes: { method: string; path: string }[] = [];
  for (const layer of router.stack) {
    for (const method of layer.methods.filter((m) => m !== 'HEAD')) {
      // Path parameters get a plausible value: the guard must refuse before they matter.
      routes.push({ method, path: String(layer.path).replace(/:[A-Za-z_]+/g, '1').replace(/\{?\*[A-Za-z_]+\}?/g, 'x') });
    }
  }
  assert.ok(routes.length >= 2, 'the admin router lists its routes');
  return routes;
}

/** The spellings an attacker tries: letter case at every level, trailing and doubled slashes, escapes. */
function variants(path: string): string[] {
  const rest = path.slice('/api/admin'.length);
  return [
    path,
    `/api/Admin${rest}`,
    `/API/ADMIN${rest.toUpperCase()}`,
    `/aPi/aDmIn${rest}`,
    `${path}/`,
    `/api/Admin${rest}/`,
    `/api//admin${rest}`,
    `/api/%61dmin${rest}`,
    `/api/%2561dmin${rest}`,
  ];
}

describe(`admin guard in every spelling (${TEST_DIALECT})`, () => {
  it('the normalised path folds case, escapes, doubled and trailing slashes', () => {
    assert.equal(guardPathOf('/API//Admin/%61dd_credit/'), '/api/admin/add_credit');
    assert.equal(guardPathOf('/api/%2561dmin/ping'), '/api/admin/ping');
    assert.equal(guardPathOf('/'), '/');
    assert.throws(() => guardPathOf('/api/%E0%A4%A'));
  });

  it('every admin route, in every variant, answers 401 without a key and 403 to a user key; credits never move', async () => {
    const user = await register(t);
    const before = await balance(t, user.id);
    for (const route of adminRouteList(t)) {
      for (const path of variants(route.path)) {
        const json = route.method === 'GET' || route.method === 'DELETE' ? undefined : { user_id: user.id, amount: 1000 };
        const anonymous = await t.request(route.method, path, { json });
        assert.equal(anonymous.status, 401, `${route.method} ${path} without a key: ${anonymous.text}`);
        const asUser = await t.request(route.method, path, { key: user.key, json });
        assert.equal(asUser.status, 403, `${route.method} ${path} with a user key: ${asUser.text}`);
        assert.deepEqual(asUser.body, { detail: 'Accès réservé aux administrateurs.' });
      }
    }
    assert.equal(await balance(t, user.id), before);
  });

  it('an admin reaches the routes as written (and a trailing slash); other spellings are not routes at all', async () => {
    const admin = await makeAdmin(t);
    assert.equal((await t.request('GET', '/api/admin/ping', { key: admin.key })).status, 200);
    assert.equal((await t.request('GET', '/api/admin/ping/', { key: admin.key })).status, 200);
    for (const path of ['/api/Admin/ping', '/API/ADMIN/PING', '/api/admin/PING']) {
      const res = await t.request('GET', path, { key: admin.key });
      assert.equal(res.status, 404, path);
    }
  });

  it('no route of the API answers to another letter case', async () => {
    const user = await register(t);
    for (const path of ['/api/ME', '/API/me', '/api/Me/']) {
      const res = await t.request('GET', path, { key: user.key });
      assert.equal(res.status, 404, path);
      assert.deepEqual(res.body, { detail: 'Ressource introuvable.' });
    }
  });

  it('marks every API answer no-store, whatever the spelling', async () => {
    for (const path of ['/api/health', '/API/health', '/Api/Health/', '/api/Admin/ping']) {
      const res = await t.request('GET', path);
      assert.equal(res.headers.get('cache-control'), 'no-store', path);
    }
  });

  it('answers 400, not 500, for a path whose escapes cannot be decoded', async () => {
    const res = await t.raw('GET', '/api/%E0%A4%A');
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { detail: 'Chemin de fichier invalide.' });
  });
});
