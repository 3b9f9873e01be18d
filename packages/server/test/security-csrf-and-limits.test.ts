import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NO_LIMITS, newPerson, register, startTestApp, useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { appRoutes } from './support/hostile-sweep.js';

// Cross-site requests and the sign-in limits in every form of one client or one address
// (docs/security.md, "Cross-site requests" and "Sign-in attempts per account").

const rule = (limit: number, windowSeconds = 60) => ({ limit, windowSeconds });
const t = useTestApp({ config: { rateLimits: { ...NO_LIMITS, loginAccount: { free: 3, maxDelaySeconds: 900 } } } });

describe(`cross-site requests carry no credential (${TEST_DIALECT})`, () => {
  it('a key in a cookie, or in the address of a route that changes something, signs nobody in', async () => {
    const victim = await register(t);
    const routes = appRoutes(t.app).filter((r) => r.path.startsWith('/api/') && r.method !== 'GET');
    assert.ok(routes.length > 30, String(routes.length));
    for (const route of routes) {
      const path = route.path.replace(/:[A-Za-z_]+(\([^)]*\))?/g, '1').replace(/\{?\*[A-Za-z_]+\}?/g, 'x');
      const anonymous = await t.request(route.method, path, { body: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      // What a page on another site can make a browser send: a simple form post, with the
      // victim's cookies (were any key in one) and any address it likes.
      const crossSite = await t.request(route.method, `${path}?token=${victim.key}&apiKey=${victim.key}&api_key=${victim.key}`, {
        body: 'a=1',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: 'https://evil.example',
          referer: 'https://evil.example/page',
          cookie: `token=${victim.key}; apiKey=${victim.key}; bt_session=${victim.key}; session=${victim.key}`,
        },
      });
      assert.equal(crossSite.status, anonymous.status, `${route.method} ${path}: ${crossSite.text.slice(0, 160)}`);
      if (anonymous.status === 401) assert.deepEqual(crossSite.body, anonymous.body);
    }
    const me = await t.request('GET', '/api/me', { key: victim.key });
    assert.equal(me.status, 200, 'the victim is still signed in: no cross-site logout either');
  });

  it('a JSON body sent as text/plain (no preflight) is refused by every route that reads a body, even with a key', async () => {
    const user = await register(t);
    const res = await t.request('POST', '/api/profile/set-password', {
      key: user.key,
      body: JSON.stringify({ current_password: user.password, new_password: 'un-autre-mot-de-passe' }),
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(res.status, 415, res.text);
    assert.equal((await t.request('POST', '/api/login', { json: { identifier: user.username, password: user.password } })).status, 200, 'the password did not change');
  });
});

describe(`sign-in limits count one client and one address however written (${TEST_DIALECT})`, () => {
  it('per account: other letter cases, NFD and a trailing dot of the address share one count (unknown addresses too)', async () => {
    for (const known of [true, false]) {
      const email = `élodie${process.pid}${known ? 'k' : 'u'}@exemple.fr`;
      if (known) await register(t, { ...newPerson('limits'), email });
      const forms = [email, email.toUpperCase(), email.normalize('NFD'), `${email}.`, ` ${email.toUpperCase().normalize('NFD')} `];
      const statuses: number[] = [];
      for (const form of forms) statuses.push((await t.request('POST', '/api/login', { json: { email: form, password: 'mauvais-mot-de-passe' } })).status);
      assert.deepEqual(statuses, [401, 401, 401, 429, 429], `${known ? 'an account' : 'an unknown address'}: ${statuses}`);
    }
  });

  it('per client: X-Forwarded-For is not read without TRUST_PROXY', async () => {
    const direct = await startTestApp(t.db, { config: { rateLimits: { ...NO_LIMITS, login: rule(3) } } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await direct.request('POST', '/api/login', {
          json: { identifier: 'quelqu-un', password: 'mauvais-mdp' },
          headers: { 'x-forwarded-for': `203.0.113.${i}`, 'x-real-ip': `203.0.113.${i}`, forwarded: `for=203.0.113.${i}` },
        });
        statuses.push(res.status);
      }
      assert.deepEqual(statuses, [401, 401, 401, 429, 429]);
    } finally {
      await direct.close();
    }
  });

  it('per client behind a proxy: an IPv4 address and its IPv4-mapped IPv6 form, or IPv6 in any spelling of its /64, are one client', async () => {
    const behind = await startTestApp(t.db, { config: { trustProxy: true, rateLimits: { ...NO_LIMITS, login: rule(2) } } });
    try {
      const creds = { identifier: 'quelqu-un', password: 'mauvais-mdp' };
      const from = (address: string) => behind.request('POST', '/api/login', { json: creds, headers: { 'x-forwarded-for': address } });
      assert.deepEqual([(await from('198.51.100.9')).status, (await from('::ffff:198.51.100.9')).status, (await from('::FFFF:198.51.100.9')).status], [401, 401, 429]);
      const six = ['2001:db8:aa:1::1', '2001:0DB8:00AA:0001:0:0:0:2', '2001:db8:aa:1:ffff:ffff:ffff:ffff'];
      const statuses = [];
      for (const address of six) statuses.push((await from(address)).status);
      assert.deepEqual(statuses, [401, 401, 429]);
    } finally {
      await behind.close();
    }
  });
});

describe(`reset links per account (${TEST_DIALECT})`, () => {
  it('many clients asking for one address mail it at most the reset limit per window, answered alike; the last link still works', async () => {
    // Each request mails the owner and cancels the link before it: spread over addresses, a flood
    // filled the owner's mailbox and kept every link they received dead.
    const behind = await startTestApp(t.db, { config: { trustProxy: true, rateLimits: { ...NO_LIMITS, reset: rule(2) } } });
    try {
      const owner = await register(behind);
      const answers = new Set<string>();
      for (let i = 1; i <= 5; i++) {
        const res = await behind.request('POST', '/api/auth/generate-reset-token', { json: { email: owner.email }, headers: { 'x-forwarded-for': `203.0.113.${i}` } });
        assert.equal(res.status, 200, res.text);
        answers.add(res.text);
      }
      assert.equal(answers.size, 1, 'the same answer whether a mail left or not');
      const links = behind.logs.filter((line) => line.includes(`password reset link for user ${owner.id}:`));
      assert.equal(links.length, 2, links.join('\n'));
      const token = links.at(-1)!.split('/reset-password/')[1];
      const reset = await behind.request('POST', `/api/auth/reset-password/${token}`, { json: { new_password: 'le-vrai-proprietaire' } });
      assert.equal(reset.status, 200, reset.text);
      behind.clock.advance(61_000);
      await behind.request('POST', '/api/auth/generate-reset-token', { json: { email: owner.email }, headers: { 'x-forwarded-for': '203.0.113.99' } });
      assert.equal(behind.logs.filter((line) => line.includes(`password reset link for user ${owner.id}:`)).length, 3, 'a new window mails again');
    } finally {
      await behind.close();
    }
  });
});
