import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Closers } from '../src/app/lifecycle.js';
import { readOpsEnv } from '../src/config/ops-env.js';

describe('operations settings from the environment', () => {
  it('defaults: no Redis, JSON logs at info, /metrics for loopback, 25 s to drain', () => {
    assert.deepEqual(readOpsEnv({}), { redisUrl: null, redisPrefix: 'bt:', logLevel: 'info', logFormat: 'json', metricsToken: null, shutdownTimeoutMs: 25_000 });
    const set = readOpsEnv({ REDIS_URL: 'redis://redis.internal:6379/2', REDIS_PREFIX: 'bt-prod:', LOG_LEVEL: 'WARN', LOG_FORMAT: 'text', METRICS_TOKEN: 'abcdefghijklmnop', SHUTDOWN_TIMEOUT_MS: '5000' });
    assert.deepEqual(set, { redisUrl: 'redis://redis.internal:6379/2', redisPrefix: 'bt-prod:', logLevel: 'warn', logFormat: 'text', metricsToken: 'abcdefghijklmnop', shutdownTimeoutMs: 5000 });
  });

  it('refuses what it cannot use, naming the variable', () => {
    for (const [env, message] of [
      [{ REDIS_URL: 'http://redis:6379' }, /REDIS_URL/],
      [{ REDIS_PREFIX: 'has space' }, /REDIS_PREFIX/],
      [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
      [{ LOG_FORMAT: 'xml' }, /LOG_FORMAT/],
      [{ METRICS_TOKEN: 'short' }, /METRICS_TOKEN/],
      [{ SHUTDOWN_TIMEOUT_MS: '-1' }, /SHUTDOWN_TIMEOUT_MS/],
      [{ SHUTDOWN_TIMEOUT_MS: 'soon' }, /SHUTDOWN_TIMEOUT_MS/],
    ] as const) {
      assert.throws(() => readOpsEnv(env), message);
    }
  });
});

describe('closers', () => {
  it('run newest first, once; one that fails or hangs is reported and the others still run', async () => {
    const closers = new Closers();
    const ran: string[] = [];
    closers.add('database', () => void ran.push('database'));
    closers.add('broken', () => {
      throw new Error('boom');
    });
    closers.add('hangs', () => new Promise(() => {}));
    closers.add('runner', async () => {
      await new Promise((r) => setTimeout(r, 10));
      ran.push('runner');
    });
    const logs: string[] = [];
    const failed = await closers.closeAll({ timeoutMs: 100, log: (m) => logs.push(m) });
    assert.deepEqual(ran, ['runner', 'database']);
    assert.deepEqual(failed, ['hangs', 'broken']);
    assert.deepEqual(logs, ['shutdown: hangs: did not close within 100 ms', 'shutdown: broken: boom']);
    assert.deepEqual(await closers.closeAll(), failed, 'a second call waits for the same closing');
    assert.deepEqual(ran, ['runner', 'database']);
  });
});
