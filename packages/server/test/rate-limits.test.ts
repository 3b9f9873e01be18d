import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../src/clock/index.js';
import { parseRateRule, readEnv } from '../src/config/env.js';
import { MemoryRateLimiter } from '../src/ratelimit/index.js';
import { NO_LIMITS, newPerson, register, startTestApp, useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { mapEntriesWalked } from './support/work-counts.js';

const rule = (limit: number, windowSeconds = 60) => ({ limit, windowSeconds });
const t = useTestApp({
  config: { rateLimits: { ...NO_LIMITS, login: rule(3), register: rule(2), reset: rule(2), support: rule(2), verify: rule(1), api: rule(5) } },
});

function assertLimited(res: { status: number; body: any; headers: Headers }) {
  assert.equal(res.status, 429);
  assert.match(res.body.detail, /^Trop de requêtes\. Réessaie dans \d+ s\.$/);
  assert.ok(Number(res.headers.get('retry-after')) >= 1);
}

describe(`rate limits (${TEST_DIALECT})`, () => {
  it('limits login attempts per client and lets them through again after the window', async () => {
    const creds = { identifier: 'quelqu-un', password: 'mauvais-mdp' };
    for (let i = 0; i < 3; i++) assert.equal((await t.request('POST', '/api/login', { json: creds })).status, 401);
    const limited = await t.request('POST', '/api/login', { json: creds });
    assertLimited(limited);
    assert.equal(limited.headers.get('retry-after'), '60');
    t.clock.advance(61_000);
    assert.equal((await t.request('POST', '/api/login', { json: creds })).status, 401);
  });

  it('limits registrations, reset requests and support messages', async () => {
    for (let i = 0; i < 2; i++) assert.equal((await t.request('POST', '/api/register', { json: newPerson() })).status, 201);
    assertLimited(await t.request('POST', '/api/register', { json: newPerson() }));

    for (let i = 0; i < 2; i++) assert.equal((await t.request('POST', '/api/auth/generate-reset-token', { json: { email: 'x@example.com' } })).status, 200);
    assertLimited(await t.request('POST', '/api/auth/generate-reset-token', { json: { email: 'x@example.com' } }));
    assertLimited(await t.request('POST', '/api/auth/reset-password/abc', { json: { new_password: 'whatever-123' } }));

    const msg = { type: 'contact', firstName: 'A', lastName: 'B', email: 'a@b.fr', message: 'Bonjour' };
    for (let i = 0; i < 2; i++) assert.equal((await t.request('POST', '/api/support', { json: msg })).status, 201);
    assertLimited(await t.request('POST', '/api/support', { json: msg }));
  });

  it('limits API calls per key, not per client', async () => {
    t.clock.advance(3600_000);
    const a = await register(t); // register() already made one call with the key (GET /api/me)
    const b = await register(t);
    for (let i = 0; i < 4; i++) assert.equal((await t.request('GET', '/api/me', { key: a.key })).status, 200);
    assertLimited(await t.request('GET', '/api/me', { key: a.key }));
    assert.equal((await t.request('GET', '/api/me', { key: b.key })).status, 200, 'another key has its own budget');
    assert.equal((await t.request('GET', '/api/health')).status, 200, 'calls without a key are not counted here');
  });

  it('limits verification mails per account', async () => {
    t.clock.advance(3600_000);
    const user = await register(t);
    assert.equal((await t.request('POST', '/api/auth/resend-verification', { key: user.key })).status, 200);
    assertLimited(await t.request('POST', '/api/auth/resend-verification', { key: user.key }));
  });

  it('an address change mails a link too: it counts against the same limit (else a mail to any address every request)', async () => {
    t.clock.advance(3600_000);
    const user = await register(t);
    const move = (email: string) => t.request('POST', '/api/profile/update', { key: user.key, json: { email, password: user.password } });
    const first = newPerson().email;
    assert.equal((await move(first)).status, 200);
    const refused = await move(newPerson().email);
    assertLimited(refused);
    assert.equal((await t.request('GET', '/api/me', { key: user.key })).body.email, first, 'refused: the address did not change');
    assertLimited(await t.request('POST', '/api/auth/resend-verification', { key: user.key }));
    // A new window (this file's API limit is 5 calls a minute too). What sends no mail is not
    // counted: the name, or the same address in capitals; so the next move still passes.
    t.clock.advance(61_000);
    assert.equal((await t.request('POST', '/api/profile/update', { key: user.key, json: { full_name: 'Camille Martin' } })).status, 200);
    assert.equal((await t.request('POST', '/api/profile/update', { key: user.key, json: { email: first.toUpperCase(), full_name: 'Camille Durand' } })).status, 200);
    assert.equal((await move(newPerson().email)).status, 200);
  });
});

describe(`rate limits on the current password (${TEST_DIALECT})`, () => {
  it('set-password counts as sign-in attempts of the account: a stolen key cannot guess the password at the API’s rate', async () => {
    t.clock.advance(3600_000);
    const user = await register(t);
    const guess = (current: string) => t.request('POST', '/api/profile/set-password', { key: user.key, json: { current_password: current, new_password: 'nouveau-mdp-9' } });
    for (let i = 0; i < 3; i++) assert.deepEqual((await guess(`essai-${i}-faux`)).body, { detail: 'Mot de passe actuel incorrect.' });
    assertLimited(await guess(user.password));
    t.clock.advance(61_000);
    assert.equal((await guess(user.password)).status, 200);
  });
});

describe(`rate limits behind a reverse proxy (${TEST_DIALECT})`, () => {
  it('count the address the proxy saw, not one the client wrote into X-Forwarded-For', async () => {
    // nginx's $proxy_add_x_forwarded_for keeps what the client sent and appends the address it
    // saw. Koa's ctx.ip took the leftmost entry: a new made-up address per request, and the
    // login, registration and reset limits never applied.
    const behind = await startTestApp(t.db, { config: { trustProxy: true, rateLimits: { ...NO_LIMITS, login: rule(3) } } });
    try {
      const creds = { identifier: 'quelqu-un', password: 'mauvais-mdp' };
      const attempt = (i: number, client = '198.51.100.7') =>
        behind.request('POST', '/api/login', { json: creds, headers: { 'x-forwarded-for': `203.0.113.${i}, ${client}` } });
      for (let i = 0; i < 3; i++) assert.equal((await attempt(i)).status, 401);
      assertLimited(await attempt(3));
      assertLimited(await attempt(4));
      assert.equal((await attempt(5, '198.51.100.8')).status, 401, 'another client has its own count');
    } finally {
      await behind.close();
    }
  });

  it('an IPv6 client is one /64: a fresh address of its block for every request does not buy a fresh count', async () => {
    // A subscriber gets a /64 at least (docs/security.md, "Connections"): counted address by
    // address, registrations, resets and support messages had no limit for any IPv6 client.
    const behind = await startTestApp(t.db, { config: { trustProxy: true, rateLimits: { ...NO_LIMITS, register: rule(2), support: rule(2) } } });
    try {
      const from = (i: number, block = '2001:db8:7:1') => ({ 'x-forwarded-for': `${block}:${i.toString(16)}:0:0:${(i * 7919).toString(16)}` });
      for (let i = 0; i < 2; i++) assert.equal((await behind.request('POST', '/api/register', { json: newPerson(), headers: from(i + 1) })).status, 201);
      assertLimited(await behind.request('POST', '/api/register', { json: newPerson(), headers: from(3) }));
      assertLimited(await behind.request('POST', '/api/register', { json: newPerson(), headers: { 'x-forwarded-for': '2001:DB8:7:1::abcd' } }));
      assert.equal((await behind.request('POST', '/api/register', { json: newPerson(), headers: from(4, '2001:db8:7:2') })).status, 201, 'the next /64 has its own count');
      const msg = { type: 'contact', firstName: 'A', lastName: 'B', email: 'a@b.fr', message: 'Bonjour' };
      for (let i = 0; i < 2; i++) assert.equal((await behind.request('POST', '/api/support', { json: msg, headers: from(10 + i) })).status, 201);
      assertLimited(await behind.request('POST', '/api/support', { json: msg, headers: from(12) }));
    } finally {
      await behind.close();
    }
  });

  it('two proxies in a row (TRUST_PROXY=2): the address the first one saw', async () => {
    const behind = await startTestApp(t.db, { config: { trustProxy: true, proxyHops: 2, rateLimits: { ...NO_LIMITS, login: rule(2) } } });
    try {
      const creds = { identifier: 'quelqu-un', password: 'mauvais-mdp' };
      const attempt = (i: number) => behind.request('POST', '/api/login', { json: creds, headers: { 'x-forwarded-for': `203.0.113.${i}, 198.51.100.9, 10.0.0.2` } });
      for (let i = 0; i < 2; i++) assert.equal((await attempt(i)).status, 401);
      assertLimited(await attempt(2));
    } finally {
      await behind.close();
    }
  });
});

describe('the in-process limiter under a flood of keys', () => {
  it('holds at most its bound of keys, and each call stays cheap past it (no sweep of every key per call)', () => {
    // Every sign-in with an unknown name leaves a count kept 24 hours: a few addresses at the login
    // limit fill 100,000 keys in a day, and each call then swept them all (milliseconds per login,
    // growing without end with the keys, and the memory with them).
    const clock = new ManualClock(Date.parse('2026-01-15T10:00:00Z'));
    const limiter = new MemoryRateLimiter(clock, 2_000);
    const failure = { free: 5, maxDelaySeconds: 900 };
    // Counted, not timed (a 5 s bound failed at random on the loaded CI machine): a few entries
    // walked per call (the oldest dropped, a sweep now and then), not every key held. A sweep per
    // call walks 6,000 keys each, a billion in all; the budget, four per call, stops it early.
    const calls = 180_000;
    const { walked } = mapEntriesWalked(() => {
      for (let i = 0; i < calls / 3; i++) {
        limiter.attempt('signin', `inconnu-${i}`, failure);
        limiter.hit('login', `198.51.${i >> 8}.${i & 255}`, rule(10));
        limiter.remember('signin-client', `client-${i}`, 30 * 24 * 3600);
      }
    }, 4 * calls);
    assert.ok(limiter.keys() <= 3 * 2_000, `${limiter.keys()} keys held`);
    assert.ok(walked > 0, 'the counting sees the limiter walk its maps');
    // The newest keys are kept: their counts still hold.
    for (let i = 0; i < 5; i++) limiter.attempt('signin', 'inconnu-59999', failure);
    assert.equal(limiter.attempt('signin', 'inconnu-59999', failure).allowed, false);
    assert.equal(limiter.remembers('signin-client', 'client-59999'), true);
  });
});

describe('rate-limit settings from the environment', () => {
  it('reads COUNT/SECONDS, off, and defaults', () => {
    assert.deepEqual(parseRateRule('RATE_LIMIT_LOGIN', '20/300', null), { limit: 20, windowSeconds: 300 });
    assert.equal(parseRateRule('RATE_LIMIT_LOGIN', 'off', rule(1)), null);
    assert.deepEqual(parseRateRule('RATE_LIMIT_LOGIN', undefined, rule(7)), rule(7));
    assert.throws(() => parseRateRule('RATE_LIMIT_LOGIN', 'beaucoup', null), /invalid RATE_LIMIT_LOGIN: beaucoup/);
    const env = readEnv({ RATE_LIMIT_API: '1000/60', RATE_LIMIT_SUPPORT: 'off' }, '/srv');
    assert.deepEqual(env.rateLimits.api, { limit: 1000, windowSeconds: 60 });
    assert.equal(env.rateLimits.support, null);
    assert.deepEqual(env.rateLimits.login, { limit: 10, windowSeconds: 60 });
  });

  it('TRUST_PROXY: false, true (one proxy) or the number of proxies in front', () => {
    const hops = (value?: string) => {
      const env = readEnv(value === undefined ? {} : { TRUST_PROXY: value }, '/srv');
      return [env.trustProxy, env.proxyHops];
    };
    assert.deepEqual(hops(), [false, 0]);
    assert.deepEqual(hops('false'), [false, 0]);
    assert.deepEqual(hops('0'), [false, 0]);
    assert.deepEqual(hops('true'), [true, 1]);
    assert.deepEqual(hops('1'), [true, 1]);
    assert.deepEqual(hops(' 2 '), [true, 2]);
    assert.throws(() => readEnv({ TRUST_PROXY: 'peut-être' }, '/srv'), /invalid TRUST_PROXY: peut-être \(expected true, false or the number of proxies in front, 1 to 10\)/);
    assert.throws(() => readEnv({ TRUST_PROXY: '11' }, '/srv'), /invalid TRUST_PROXY: 11/);
  });
});
