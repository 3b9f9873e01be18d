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
  assert.ok(routes.length >= 36, 'the admin router lists its routes');
  return routes;
}

/** The 35 admin calls of the console (docs/admin.md), each of which must be a route of the router. */
const CONSOLE_CALLS = [
  'GET /api/admin/get_users', 'GET /api/admin/user_history/1', 'POST /api/admin/add_credit', 'POST /api/admin/remove_credit',
  'POST /api/admin/delete_user', 'GET /api/admin/global_history', 'POST /api/admin/history/reset',
  'GET /api/admin/global_stats', 'GET /api/admin/metrics/overview', 'GET /api/admin/metrics/breakdown', 'GET /api/admin/metrics/details',
  'GET /api/admin/metrics/details/sales', 'GET /api/admin/metrics/details/offered', 'GET /api/admin/metrics/details/users_all',
  'POST /api/admin/metrics/reset', 'POST /api/admin/metrics/rebuild_from_users', 'GET /api/admin/stats/backtest_summary', 'GET /api/admin/download_xlsx',
  'POST /api/admin/csv/reindex-output', 'GET /api/admin/email-recreate', 'POST /api/admin/reset-email-recreate', 'GET /api/admin/factures_info',
  'GET /api/admin/factures_list', 'GET /api/admin/factures_download', 'POST /api/admin/factures_delete', 'POST /api/admin/maintenance/import-output',
  'GET /api/admin/strategies/overview', 'GET /api/admin/strategies/recent', 'GET /api/admin/strategies/detail', 'GET /api/admin/strategies/archive/download',
  'DELETE /api/admin/strategies/archive', 'PATCH /api/admin/strategies/archive/restore-all',
  'GET /api/admin/fs/roots', 'GET /api/admin/fs/tree', 'GET /api/admin/fs/download',
];

/** What each route is sent: a JSON body that would change credits, or (the import) a multipart form with a ZIP. */
function bodyFor(route: { method: string; path: string }, userId: number): { json?: unknown; form?: FormData } {
  if (route.method === 'GET' || route.method === 'DELETE') return {};
  if (route.path.endsWith('/maintenance/import-output')) {
    const form = new FormData();
    form.append('target_month', '2023-03');
    form.append('file', new Blob([new Uint8Array(64 * 1024).fill(0x50)]), 'output.zip');
    return { form };
  }
  return { json: { user_id: userId, amount: 1000, scope: 'all', email: 'x@example.com', rel: '2026/F.pdf' } };
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

  it('the router holds the 35 calls of the console', () => {
    const listed = new Set(adminRouteList(t).map((r) => `${r.method} ${r.path}`));
    assert.equal(CONSOLE_CALLS.length, 35);
    for (const call of CONSOLE_CALLS) assert.ok(listed.has(call), call);
  });

  it('every admin route, in every variant, answers 401 without a key and 403 to a user key; credits never move', async () => {
    const user = await register(t);
    const before = await balance(t, user.id);
    const events = await t.db.models.AppEvent.count();
    for (const route of adminRouteList(t)) {
      for (const path of variants(route.path)) {
        const anonymous = await t.request(route.method, path, bodyFor(route, user.id));
        assert.equal(anonymous.status, 401, `${route.method} ${path} without a key: ${anonymous.text}`);
        const asUser = await t.request(route.method, path, { key: user.key, ...bodyFor(route, user.id) });
        assert.equal(asUser.status, 403, `${route.method} ${path} with a user key: ${asUser.text}`);
        assert.deepEqual(asUser.body, { detail: 'Accès réservé aux administrateurs.' });
      }
    }
    assert.equal(await balance(t, user.id), before);
    assert.equal(await t.db.models.User.count({ where: { id: user.id, deletedAt: null } }), 1, 'nobody was deleted');
    // Only the user's own presence may have been recorded; no admin action left an event.
    assert.ok((await t.db.models.AppEvent.count()) - events <= 1);
  });

  it('an admin sending hostile values to every admin route gets a 4xx with a French detail, never a 500', async () => {
    const admin = await makeAdmin(t);
    const names = ['user_id', 'amount', 'scope', 'range', 'start', 'end', 'kind', 'kpi', 'limit', 'offset', 'weekday', 'hour', 'id', 'folder', 'symbol', 'timeframe', 'strategy', 'period', 'sl', 'type', 'timestamp', 'ts', 'include_deleted', 'root', 'path', 'depth', 'rel', 'email', 'q', 'target_month', 'mode', 'dry_run', 'source_url'];
    const values = ['-1', '1e308', 'NaN', '../../etc/passwd', '/etc/passwd', '%00', 'x'.repeat(400), '[object Object]', '1.5', '99999999999999999999'];
    let checked = 0;
    for (const route of adminRouteList(t)) {
      if (route.path.endsWith('/metrics/reset') || route.path.endsWith('/reset-email-recreate')) continue; // no input to refuse
      for (const value of values) {
        const query = names.map((n) => `${n}=${encodeURIComponent(value)}`).join('&');
        const body = Object.fromEntries(names.map((n) => [n, value]));
        const asQuery = await t.request(route.method, `${route.path}?${query}`, { key: admin.key, ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { json: body }) });
        assert.ok(asQuery.status < 500, `${route.method} ${route.path} ${value.slice(0, 20)}: ${asQuery.status} ${asQuery.text.slice(0, 200)}`);
        if (asQuery.status >= 400) assert.equal(typeof asQuery.body?.detail, 'string', `${route.method} ${route.path}: ${asQuery.text.slice(0, 200)}`);
        checked++;
      }
      const lists = names.map((n) => `${n}=a&${n}=b`).join('&');
      const listed = await t.request(route.method, `${route.path}?${lists}`, { key: admin.key, ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { json: Object.fromEntries(names.map((n) => [n, { nested: [1] }])) }) });
      assert.ok(listed.status < 500, `${route.method} ${route.path} lists: ${listed.status} ${listed.text.slice(0, 200)}`);
    }
    assert.ok(checked > 300);
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
