import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { register, useTestApp, type TestResponse } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { appRoutes } from './support/hostile-sweep.js';
import { makeAdmin } from './support/work.js';

// Every route under /api, read from the running app's routers (a route added later is in the
// matrix without being listed), asked anonymously, with a deleted account's key, as a user and as
// an admin, in every spelling an attacker tries, with HEAD, OPTIONS and method-override headers
// (docs/security.md, "Paths and guards"). A refusal on the canonical path must hold in every
// spelling: the same 401 or 403, or a 404/405 that reached no handler.

const t = useTestApp();

/** The route list with plausible path parameters: the guards must answer before they matter. */
function routes() {
  const list = appRoutes(t.app)
    .filter((r) => r.path.startsWith('/api/'))
    .map((r) => ({ method: r.method, path: r.path.replace(/:[A-Za-z_]+(\([^)]*\))?/g, '1').replace(/\{?\*[A-Za-z_]+\}?/g, 'x') }));
  assert.ok(list.length >= 90, `the routers list their routes (${list.length})`);
  // Routes that end the caller's session run last (a stale key would refuse what follows).
  return [...list.filter((r) => !/\/logout$/.test(r.path)), ...list.filter((r) => /\/logout$/.test(r.path))];
}

/** The spellings of a path that name the same route to a guard (app/paths.ts) but not to the router, or both. */
function spellings(path: string): Record<string, string> {
  const [, , first, ...rest] = path.split('/');
  const tail = rest.length ? `/${rest.join('/')}` : '';
  const firstLetter = first.charCodeAt(0).toString(16);
  return {
    'API upper': `/API/${first}${tail}`,
    'first segment capitalised': `/api/${first[0].toUpperCase()}${first.slice(1)}${tail}`,
    'all upper': path.toUpperCase(),
    'trailing slash': `${path}/`,
    'two trailing slashes': `${path}//`,
    'double slash': `/api//${first}${tail}`,
    'leading double slash': `//api/${first}${tail}`,
    'escaped letter': `/api/%${firstLetter}${first.slice(1)}${tail}`,
    'escaped upper-case escape': `/api/%${firstLetter.toUpperCase()}${first.slice(1)}${tail}`,
    'double escape': `/api/%25${firstLetter}${first.slice(1)}${tail}`,
    'escaped slash': `/api%2f${first}${tail}`,
    'matrix parameter at the end': `${path};jsessionid=1`,
    'matrix parameter on a segment': `/api/${first};x=1${tail}`,
    backslash: `/api\\${first}${tail}`,
    'dot segment': `/api/./${first}${tail}`,
  };
}

const REFUSED = new Set([401, 403]);
const NOT_REACHED = new Set([404, 405, 400]);

function checkAnswer(label: string, res: TestResponse) {
  assert.ok(res.status < 500 || (res.status === 503 && typeof res.body?.detail === 'string'), `${label}: ${res.status} ${res.text.slice(0, 200)}`);
}

describe(`every /api route in every spelling, method and identity (${TEST_DIALECT})`, () => {
  it('a refusal on the canonical path holds in every spelling, with HEAD, and against method overrides', async () => {
    const user = await register(t);
    const admin = await makeAdmin(t);
    const gone = await register(t);
    const deleted = await t.request('POST', '/api/user/delete_account', { key: gone.key, json: { current_password: gone.password } });
    assert.equal(deleted.status, 200, deleted.text);
    const identities = { anonymous: undefined, 'deleted account': gone.key, user: user.key, admin: admin.key } as const;
    let requests = 0;
    const ask = async (method: string, path: string, key?: string, headers: Record<string, string> = {}) => {
      requests++;
      const res = await t.raw(method, path, { key, headers });
      checkAnswer(`${method} ${path}`, res);
      return res;
    };
    const failures: string[] = [];
    for (const route of routes()) {
      const canonical: Record<string, TestResponse> = {};
      for (const [who, key] of Object.entries(identities)) {
        if (who !== 'anonymous' && who !== 'deleted account' && /\/logout$|\/delete_account$/.test(route.path)) continue;
        const base = (canonical[who] = await ask(route.method, route.path, key));
        if (who === 'deleted account' && base.status !== canonical.anonymous.status) {
          failures.push(`${route.method} ${route.path}: a deleted account's key answered ${base.status}, without a key ${canonical.anonymous.status}`);
        }
        if (!REFUSED.has(base.status)) continue;
        for (const [name, path] of Object.entries(spellings(route.path))) {
          const res = await ask(route.method, path, key);
          if (res.status === base.status ? res.body?.detail !== base.body?.detail : !NOT_REACHED.has(res.status)) {
            failures.push(`${who} ${route.method} ${path} (${name}): ${res.status} ${res.text.slice(0, 120)}, canonical ${base.status}`);
          }
        }
        // HEAD is GET without a body: the same guard.
        if (route.method === 'GET') {
          const head = await ask('HEAD', route.path, key);
          if (head.status !== base.status) failures.push(`${who} HEAD ${route.path}: ${head.status}, GET ${base.status}`);
        }
        // No override header or parameter turns a refused method into another one.
        for (const other of ['GET', 'POST', 'DELETE', 'PATCH', 'PUT']) {
          if (other === route.method) continue;
          const plain = await ask(route.method, `${route.path}?_method=${other}`, key);
          const overridden = await ask(route.method, route.path, key, { 'X-HTTP-Method-Override': other, 'X-HTTP-Method': other, 'X-Method-Override': other });
          for (const res of [plain, overridden]) {
            if (res.status !== base.status) failures.push(`${who} ${route.method} ${route.path} as ${other}: ${res.status}, canonical ${base.status}`);
          }
        }
        // OPTIONS runs no handler: at most the list of methods, never data (decided in docs/security.md).
        const options = await ask('OPTIONS', route.path, key);
        if (!(REFUSED.has(options.status) || ((options.status === 200 || options.status === 204) && options.text === ''))) {
          failures.push(`${who} OPTIONS ${route.path}: ${options.status} ${options.text.slice(0, 120)}`);
        }
      }
      // A user is never refused where an admin is not, and the admin routes refuse the user.
      if (route.path.startsWith('/api/admin/')) {
        if (canonical.user?.status !== 403) failures.push(`user ${route.method} ${route.path}: ${canonical.user?.status}, not 403`);
        if (REFUSED.has(canonical.admin?.status ?? 0)) failures.push(`admin ${route.method} ${route.path}: refused (${canonical.admin.status})`);
      }
    }
    assert.deepEqual(failures, [], `${failures.length} guard(s) did not hold`);
    assert.ok(requests > 3000, `${requests} requests`);
  });

  it('an admin path in any spelling is refused before routing, whatever the method (HEAD and OPTIONS too)', async () => {
    const user = await register(t);
    for (const path of ['/api/admin/ping', '/API/Admin/ping/', '/api/%61dmin/get_users', '/api/admin;x=1/ping', '/api/admin/no-such-route']) {
      for (const method of ['GET', 'HEAD', 'OPTIONS', 'POST', 'DELETE', 'PATCH', 'PUT']) {
        const anonymous = await t.raw(method, path);
        const asUser = await t.raw(method, path, { key: user.key });
        if (path.includes(';')) {
          // Not /api/admin to a guard, nor to the router: no route (a matrix parameter names another segment).
          assert.ok(NOT_REACHED.has(anonymous.status), `${method} ${path}: ${anonymous.status}`);
          continue;
        }
        assert.equal(anonymous.status, 401, `${method} ${path} without a key`);
        assert.equal(asUser.status, 403, `${method} ${path} as a user`);
      }
    }
  });
});
