import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readEnv } from '../src/config/env.js';
import { builtWebDist, defaultWebDist } from '../src/web/static.js';
import { useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';

const shell = '<!doctype html><html lang="fr"><body><div id="root"></div><script src="/assets/index-abc123.js"></script></body></html>';
const bundle = 'console.log("bt");';

const dist = mkdtempSync(join(tmpdir(), 'bt-web-dist-'));
mkdirSync(join(dist, 'assets'));
writeFileSync(join(dist, 'index.html'), shell);
writeFileSync(join(dist, 'assets', 'index-abc123.js'), bundle);
writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
writeFileSync(join(dist, '.env'), 'SECRET=1');
after(() => rmSync(dist, { recursive: true, force: true }));
const t = useTestApp({ config: { webDist: dist } });

describe(`the built web app served beside the API (${TEST_DIALECT})`, () => {
  it('serves index.html at / and for every app route, revalidated on each load', async () => {
    for (const path of ['/', '/home', '/dashboard', '/backtest?strategy=fvg_pullback_multi', '/une/route/inconnue']) {
      const res = await t.request('GET', path);
      assert.equal(res.status, 200, path);
      assert.equal(res.text, shell, path);
      assert.match(res.headers.get('content-type') ?? '', /text\/html/, path);
      assert.equal(res.headers.get('cache-control'), 'no-cache', path);
    }
  });

  it('serves hashed bundles with a year of immutable caching, other files without', async () => {
    const js = await t.request('GET', '/assets/index-abc123.js');
    assert.equal(js.status, 200);
    assert.equal(js.text, bundle);
    assert.match(js.headers.get('content-type') ?? '', /javascript/);
    assert.equal(js.headers.get('cache-control'), 'max-age=31536000,immutable');
    const icon = await t.request('GET', '/favicon.svg');
    assert.equal(icon.status, 200);
    assert.match(icon.headers.get('content-type') ?? '', /svg/);
    assert.equal(icon.headers.get('cache-control'), 'max-age=0');
  });

  it('answers 404 for a missing bundle instead of the app shell (a stale tab must not run HTML as JS)', async () => {
    const res = await t.request('GET', '/assets/index-gone.js');
    assert.equal(res.status, 404);
    assert.notEqual(res.text, shell);
  });

  it('never serves hidden files nor files outside the build folder', async () => {
    const hidden = await t.raw('GET', '/.env');
    assert.equal(hidden.status, 200);
    assert.equal(hidden.text, shell);
    const escape = await t.raw('GET', '/../../../../etc/passwd');
    assert.doesNotMatch(escape.text, /root:/);
    const encoded = await t.raw('GET', '/%2e%2e/%2e%2e/%2e%2e/etc/passwd');
    assert.doesNotMatch(encoded.text, /root:/);
  });

  it('leaves /api/* to the API: JSON answers and JSON 404s, never the app shell', async () => {
    const health = await t.request('GET', '/api/health');
    assert.equal(health.status, 200);
    assert.equal(health.body.status, 'ok');
    const missing = await t.request('GET', '/api/nope');
    assert.equal(missing.status, 404);
    assert.notEqual(missing.text, shell);
    const post = await t.request('POST', '/dashboard', { json: {} });
    assert.notEqual(post.text, shell);
  });

  it('finds packages/web/dist by default, WEB_DIST overrides it and off disables it', () => {
    assert.match(defaultWebDist(), /packages[\\/]web[\\/]dist$/);
    assert.equal(readEnv({}, '/srv').webDist, defaultWebDist());
    assert.equal(readEnv({ WEB_DIST: 'public' }, '/srv').webDist, '/srv/public');
    assert.equal(readEnv({ WEB_DIST: 'off' }, '/srv').webDist, null);
    assert.equal(builtWebDist(dist), dist);
    assert.equal(builtWebDist(join(dist, 'assets')), null);
  });
});
