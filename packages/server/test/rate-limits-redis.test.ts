import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { ManualClock } from '../src/clock/index.js';
import { RedisRateLimiter } from '../src/ratelimit/index.js';
import { openRedis } from '../src/redis/client.js';
import { NO_LIMITS, startTestApp, type TestApp } from './support/app.js';
import { TEST_DIALECT, openTestDatabase, type TestDatabase } from './support/db.js';
import { SHARED_REDIS_URL, dropKeys, startPrivateRedis, uniquePrefix } from './support/redis-private.js';

const rule = (limit: number, windowSeconds = 60) => ({ limit, windowSeconds });
const prefix = uniquePrefix('ratelimit');
const connections: Redis[] = [];
const connect = async (url = SHARED_REDIS_URL, logs: string[] = []) => {
  const redis = await openRedis(url, (m) => logs.push(m));
  connections.push(redis);
  return redis;
};
const ready = (redis: Redis) => (redis.status === 'ready' ? Promise.resolve() : new Promise<void>((r) => redis.once('ready', () => r())));

let tdb: TestDatabase;
let a: TestApp;
let b: TestApp;

before(async () => {
  tdb = await openTestDatabase();
  const limits = { rateLimits: { ...NO_LIMITS, login: rule(3) } };
  // Two apps, each with its own Redis connection, as two API servers would have.
  for (const which of ['a', 'b'] as const) {
    const redis = await connect();
    await ready(redis);
    const app = await startTestApp(tdb.db, { config: limits, rateLimiter: (clock) => new RedisRateLimiter(redis, clock, { prefix }) });
    if (which === 'a') a = app;
    else b = app;
  }
});
after(async () => {
  await a?.close();
  await b?.close();
  await tdb?.drop();
  await dropKeys(SHARED_REDIS_URL, prefix);
  for (const redis of connections) redis.disconnect();
});

describe(`rate limits in Redis (${TEST_DIALECT})`, () => {
  it('two API servers share one limit: three logins on A and B together, the fourth refused on either', async () => {
    const creds = { identifier: 'quelqu-un', password: 'mauvais-mdp' };
    const windowOpened = Date.now();
    assert.equal((await a.request('POST', '/api/login', { json: creds })).status, 401);
    assert.equal((await b.request('POST', '/api/login', { json: creds })).status, 401);
    assert.equal((await a.request('POST', '/api/login', { json: creds })).status, 401);
    for (const server of [b, a]) {
      const limited = await server.request('POST', '/api/login', { json: creds });
      assert.equal(limited.status, 429);
      assert.match(limited.body.detail, /^Trop de requêtes\. Réessaie dans \d+ s\.$/);
      // What is left of the 60 s window opened by the first login: a busy machine may take seconds
      // to get here (each login spends its scrypt), so the lower bound counts the time gone by.
      const retry = Number(limited.headers.get('retry-after'));
      const gone = Math.ceil((Date.now() - windowOpened) / 1000);
      assert.ok(Number.isInteger(retry) && retry >= 60 - gone - 1 && retry <= 60, `retry-after ${retry} after ${gone} s`);
    }
  });

  it('counts atomically under concurrent hits, expires the window, and stores no key in clear', async () => {
    const redis = await connect();
    await ready(redis);
    const limiter = new RedisRateLimiter(redis, new ManualClock(), { prefix });
    const decisions = await Promise.all(Array.from({ length: 40 }, () => limiter.hit('burst', 'secret-api-key-123', rule(25, 1))));
    assert.equal(decisions.filter((d) => d.allowed).length, 25);
    const keys = await redis.keys(`${prefix}rl:burst:*`);
    assert.equal(keys.length, 1);
    assert.ok(!keys[0].includes('secret-api-key-123'));
    const ttl = await redis.pttl(keys[0]);
    assert.ok(ttl > 0 && ttl <= 1000, `ttl ${ttl}`);
    await new Promise((r) => setTimeout(r, ttl + 50));
    assert.equal((await limiter.hit('burst', 'secret-api-key-123', rule(25, 1))).allowed, true);
  });

  it('while Redis is down, counts in this process (logged once); shares again once Redis is back', async () => {
    const privateRedis = await startPrivateRedis();
    const logs: string[] = [];
    try {
      const redis = await connect(privateRedis.url, logs);
      await ready(redis);
      const limiter = new RedisRateLimiter(redis, new ManualClock(), { prefix, log: (m) => logs.push(m) });
      assert.equal((await limiter.hit('down', 'ip', rule(2))).allowed, true);
      await privateRedis.stop();
      const during = [];
      for (let i = 0; i < 3; i++) during.push(await limiter.hit('down', 'ip', rule(2)));
      // Fresh in-memory counting: two allowed, the third refused, never an exception.
      assert.deepEqual(during.map((d) => d.allowed), [true, true, false]);
      assert.equal(logs.filter((l) => l.startsWith('rate limits: Redis unavailable')).length, 1, logs.join('\n'));
      await privateRedis.start();
      await ready(redis);
      assert.equal((await limiter.hit('down', 'ip', rule(2))).allowed, true);
      assert.ok(logs.includes('rate limits: Redis is back; limits are shared again'), logs.join('\n'));
    } finally {
      await privateRedis.stop();
    }
  });
});
