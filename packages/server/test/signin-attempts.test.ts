import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { readEnv, parseFailureRule } from '../src/config/env.js';
import { ManualClock } from '../src/clock/index.js';
import { ProviderSignIns, REAUTH_WINDOW_MINUTES } from '../src/oidc/reauth.js';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from '../src/ratelimit/index.js';
import { openRedis } from '../src/redis/client.js';
import { NO_LIMITS, register, startTestApp, type TestApp } from './support/app.js';
import { TEST_DIALECT, openTestDatabase, type TestDatabase } from './support/db.js';
import { SHARED_REDIS_URL, dropKeys, uniquePrefix } from './support/redis-private.js';

/**
 * Password guesses spread over many client addresses (docs/security.md, "Sign-in attempts per
 * account"): the per-address limit does not see them, the account's own counter does. Run with
 * the in-process limiter and with Redis, on SQLite and MariaDB.
 */
const prefix = uniquePrefix('signin');
const connections: Redis[] = [];
let tdb: TestDatabase;

before(async () => {
  tdb = await openTestDatabase();
});
after(async () => {
  await tdb?.drop();
  await dropKeys(SHARED_REDIS_URL, prefix);
  for (const redis of connections) redis.disconnect();
});

const backends: [string, () => Promise<(clock: TestApp['clock']) => RateLimiter>][] = [
  ['in-process', async () => (clock) => new MemoryRateLimiter(clock)],
  [
    'Redis',
    async () => {
      const redis = await openRedis(SHARED_REDIS_URL, () => {});
      connections.push(redis);
      if (redis.status !== 'ready') await new Promise<void>((r) => redis.once('ready', () => r()));
      return (clock) => new RedisRateLimiter(redis, clock, { prefix });
    },
  ],
];

const TOO_MANY = /^Trop de tentatives de connexion pour ce compte\. Réessaie dans (\d+) s\.$/;

for (const [backend, limiterFor] of backends) {
  describe(`failed sign-ins per account, ${backend} limiter (${TEST_DIALECT})`, () => {
    let t: TestApp;
    before(async () => {
      // Behind a proxy, so that each request can come from an address of its own; no per-address limit.
      t = await startTestApp(tdb.db, {
        config: { trustProxy: true, rateLimits: { ...NO_LIMITS, loginAccount: { free: 5, maxDelaySeconds: 900 } } },
        rateLimiter: await limiterFor(),
      });
    });
    after(async () => {
      await t?.close();
    });

    let address = 0;
    const fresh = () => `198.51.${Math.floor(++address / 250)}.${(address % 250) + 1}`;
    const login = (identifier: string, password: string, ip = fresh()) =>
      t.request('POST', '/api/login', { json: { identifier, password }, headers: { 'x-forwarded-for': ip } });
    const refusedFor = (res: { status: number; body: any; headers: Headers }) => {
      assert.equal(res.status, 429, JSON.stringify(res.body));
      const seconds = Number(TOO_MANY.exec(res.body.detail)?.[1]);
      assert.ok(seconds >= 1, res.body.detail);
      assert.equal(res.headers.get('retry-after'), String(seconds));
      return seconds;
    };

    it('guesses from a new address each time: 5 at once, then waits doubling from 1 s up to 15 minutes', async () => {
      const user = await register(t);
      for (let i = 0; i < 5; i++) assert.equal((await login(user.username, `faux-${i}`)).status, 401);
      assert.equal(refusedFor(await login(user.username, 'faux-5')), 1);
      const waits: number[] = [];
      for (let i = 0; i < 12; i++) {
        const wait = refusedFor(await login(user.username, 'faux'));
        waits.push(wait);
        t.clock.advance(wait * 1000);
        assert.equal((await login(user.username, `faux-${i}`)).status, 401, `after waiting ${wait} s`);
      }
      assert.deepEqual(waits, [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900]);
      // A refused attempt checks no password: the right one is refused too while the account waits.
      refusedFor(await login(user.email, user.password));
      t.clock.advance(900_000);
      assert.equal((await login(user.email, user.password)).status, 200, 'once the wait is over');
      // The success forgot the failures: 5 at once again.
      for (let i = 0; i < 5; i++) assert.equal((await login(user.username, `faux-${i}`)).status, 401);
      refusedFor(await login(user.username, 'faux'));
      t.clock.advance(3600_000);
    });

    it('cannot lock the owner out: an address that signed in before has its own counter', async () => {
      const user = await register(t);
      const home = '203.0.113.77';
      assert.equal((await login(user.username, user.password, home)).status, 200);
      for (let i = 0; i < 5; i++) assert.equal((await login(user.username, `faux-${i}`)).status, 401);
      refusedFor(await login(user.username, user.password));
      refusedFor(await login(user.username, user.password, '203.0.113.78'));
      const owner = await login(user.username, user.password, home);
      assert.equal(owner.status, 200, 'the owner signs in from home while strangers wait');
      // The strangers still wait: the owner's success did not clear their counter.
      refusedFor(await login(user.username, user.password));
      // A guesser at the owner's address (a shared NAT) meets the same delays there.
      for (let i = 0; i < 5; i++) assert.equal((await login(user.username, `faux-${i}`, home)).status, 401);
      assert.equal(refusedFor(await login(user.username, user.password, home)), 1);
      t.clock.advance(3600_000);
    });

    it('an IPv6 client is known by its /64', async () => {
      const user = await register(t);
      assert.equal((await login(user.email, user.password, '2001:db8:1:2::10')).status, 200);
      for (let i = 0; i < 5; i++) assert.equal((await login(user.email, `faux-${i}`)).status, 401);
      refusedFor(await login(user.email, user.password, '2001:db8:1:3::10'));
      assert.equal((await login(user.email, user.password, '2001:db8:1:2:aaaa::1')).status, 200);
      t.clock.advance(3600_000);
    });

    it('counts the account, whichever identifier names it, and an unknown name the same way (no way to tell them apart)', async () => {
      const user = await register(t);
      for (let i = 0; i < 3; i++) assert.equal((await login(user.username.toUpperCase(), `faux-${i}`)).status, 401);
      for (let i = 0; i < 2; i++) assert.equal((await login(` ${user.email}`, `faux-${i}`)).status, 401);
      refusedFor(await login(user.email, 'faux'));
      const nobody = `personne-${process.pid}-${Date.now()}@example.com`;
      for (let i = 0; i < 5; i++) assert.deepEqual((await login(nobody, `faux-${i}`)).body, { detail: 'Identifiants invalides' });
      assert.equal(refusedFor(await login(nobody, 'faux')), 1);
      t.clock.advance(3600_000);
    });

    it('a stolen key guessing the current password (set-password, address change) meets the same count', async () => {
      const user = await register(t);
      const setPassword = (current: string) =>
        t.request('POST', '/api/profile/set-password', { key: user.key, json: { current_password: current, new_password: 'nouveau-mdp-9' }, headers: { 'x-forwarded-for': fresh() } });
      for (let i = 0; i < 4; i++) assert.deepEqual((await setPassword(`faux-${i}`)).body, { detail: 'Mot de passe actuel incorrect.' });
      const move = await t.request('POST', '/api/profile/update', { key: user.key, json: { email: `ailleurs-${user.email}`, password: 'faux-4' }, headers: { 'x-forwarded-for': fresh() } });
      assert.deepEqual(move.body, { detail: 'Mot de passe actuel incorrect.' });
      refusedFor(await setPassword(user.password));
      refusedFor(await login(user.username, user.password));
      t.clock.advance(1000);
      assert.equal((await setPassword(user.password)).status, 200);
      t.clock.advance(3600_000);
    });

    it('a stolen key guessing the current password to delete the account meets the same count; the right one deletes', async () => {
      const user = await register(t);
      const deleteAccount = (current: string) =>
        t.request('POST', '/api/user/delete_account', { key: user.key, json: { current_password: current }, headers: { 'x-forwarded-for': fresh() } });
      for (let i = 0; i < 5; i++) assert.deepEqual((await deleteAccount(`faux-${i}`)).body, { detail: 'Mot de passe actuel incorrect.' });
      refusedFor(await deleteAccount(user.password));
      refusedFor(await login(user.username, user.password));
      assert.equal((await t.request('GET', '/api/me', { key: user.key })).status, 200, 'nothing deleted');
      t.clock.advance(1000);
      const deleted = await deleteAccount(user.password);
      assert.deepEqual([deleted.status, deleted.body.message], [200, 'Compte supprimé.']);
      t.clock.advance(3600_000);
    });

    it('concurrent guesses cannot all pass before the first one failed', async () => {
      const user = await register(t);
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => login(user.username, `faux-${i}`)));
      const statuses = answers.map((a) => a.status).sort();
      assert.equal(statuses.filter((s) => s === 401).length, 5, statuses.join(','));
      assert.equal(statuses.filter((s) => s === 429).length, 15, statuses.join(','));
      assert.ok(!statuses.some((s) => s >= 500));
      t.clock.advance(3600_000);
    });
  });
}

describe('the mark of a recent Google sign-in in Redis (docs/security.md, "Accounts without a password")', () => {
  it('is seen by every server, for its own session only, and expires after 10 minutes', async () => {
    const redis = await openRedis(SHARED_REDIS_URL, () => {});
    connections.push(redis);
    if (redis.status !== 'ready') await new Promise<void>((r) => redis.once('ready', () => r()));
    const providers = [{ id: 'google', label: 'Google' }];
    const a = new ProviderSignIns(new RedisRateLimiter(redis, new ManualClock(), { prefix }), providers);
    const b = new ProviderSignIns(new RedisRateLimiter(redis, new ManualClock(), { prefix }), providers);
    await a.record(41, 7);
    assert.equal(await b.isRecent(41, 7), true, 'another server sees it');
    assert.equal(await b.isRecent(41, 8), false, 'another session of the account is not vouched for');
    assert.equal(await b.isRecent(42, 7), false);
    const keys = await redis.keys(`${prefix}rl:provider-signin:*`);
    assert.equal(keys.length, 1);
    const ttl = await redis.pttl(keys[0]);
    assert.ok(ttl > REAUTH_WINDOW_MINUTES * 60_000 - 5000 && ttl <= REAUTH_WINDOW_MINUTES * 60_000, `ttl ${ttl}`);
  });
});

describe('RATE_LIMIT_LOGIN_ACCOUNT', () => {
  it('reads FAILURES/MAX_DELAY_SECONDS, off, and defaults to 5/900', () => {
    assert.deepEqual(readEnv({}, '/srv').rateLimits.loginAccount, { free: 5, maxDelaySeconds: 900 });
    assert.deepEqual(readEnv({ RATE_LIMIT_LOGIN_ACCOUNT: '10/3600' }, '/srv').rateLimits.loginAccount, { free: 10, maxDelaySeconds: 3600 });
    assert.equal(readEnv({ RATE_LIMIT_LOGIN_ACCOUNT: 'off' }, '/srv').rateLimits.loginAccount, null);
    assert.throws(() => parseFailureRule('RATE_LIMIT_LOGIN_ACCOUNT', 'cinq', null), /invalid RATE_LIMIT_LOGIN_ACCOUNT: cinq \(expected FAILURES\/MAX_DELAY_SECONDS such as 5\/900, or off\)/);
    // The other limits keep their reading.
    assert.deepEqual(readEnv({}, '/srv').rateLimits.login, { limit: 10, windowSeconds: 60 });
  });
});
