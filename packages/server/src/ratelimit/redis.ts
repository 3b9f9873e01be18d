import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Clock } from '../clock/index.js';
import { FAILURE_MEMORY_SECONDS, MemoryRateLimiter, type AttemptDecision, type FailureRule, type RateDecision, type RateLimiter, type RateRule } from './limiter.js';

/**
 * One fixed window per key, counted atomically on the Redis server: the first hit of a window
 * sets its expiry, and a key that somehow lost its expiry gets one back, so no counter lives
 * forever. Returns the count and the milliseconds left in the window.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

/**
 * One attempt of a key under a FailureRule (limiter.ts, failureDelayMs), atomically: refused while
 * the key must still wait, else counted (as a failure until a success deletes the key) with the
 * wait it imposes on the next one. Time is the server's clock (ARGV[1], ms). The key lives as
 * long as the failures are remembered after the last attempt.
 */
const ATTEMPT_SCRIPT = `
local now = tonumber(ARGV[1])
local free = tonumber(ARGV[2])
local maxMs = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'n', 'until')
local n = tonumber(state[1]) or 0
local untilMs = tonumber(state[2]) or 0
if now < untilMs then return {0, untilMs - now} end
n = n + 1
local delay = 0
if n >= free then
  local e = n - free
  if e > 40 then e = 40 end
  delay = math.min(1000 * 2 ^ e, maxMs)
end
redis.call('HSET', KEYS[1], 'n', n, 'until', string.format('%d', now + delay))
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[4]) + delay)
return {1, delay}
`;

/**
 * Rate limits shared by every API server through Redis (REDIS_URL): a limit of 5 per minute is 5
 * per minute for the whole deployment, whichever server a load balancer picks.
 *
 * When Redis does not answer, the limits are not dropped: this server counts on its own in memory
 * (the limits of a single server) until Redis is back, and says so once in its log (docs/deployment.md,
 * "Redis"). Refusing every request with 503 would make a Redis outage an outage of sign-in and of
 * every API call; letting everything through would drop the brute-force protection of the login.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly fallback: MemoryRateLimiter;
  private degraded = false;

  constructor(
    private readonly redis: Redis,
    private readonly clock: Clock,
    private readonly options: { prefix?: string; log?: (message: string) => void } = {},
  ) {
    this.fallback = new MemoryRateLimiter(clock);
  }

  /** Keys are hashed: an API key (the `api` bucket) never lands in Redis as such. */
  private keyOf(bucket: string, key: string): string {
    const digest = createHash('sha256').update(key).digest('base64url').slice(0, 32);
    return `${this.options.prefix ?? 'bt:'}rl:${bucket}:${digest}`;
  }

  /** Runs `shared` on Redis; while Redis does not answer, `local` on this process's own counters. */
  private async shared<T>(shared: () => Promise<T>, local: () => T): Promise<T> {
    let result: T;
    try {
      result = await shared();
    } catch (err) {
      if (!this.degraded) {
        this.degraded = true;
        this.options.log?.(`rate limits: Redis unavailable (${(err as Error).message}); counting in this process until it is back`);
      }
      return local();
    }
    if (this.degraded) {
      this.degraded = false;
      this.options.log?.('rate limits: Redis is back; limits are shared again');
    }
    return result;
  }

  async attempt(bucket: string, key: string, rule: FailureRule): Promise<AttemptDecision> {
    const [allowed, wait] = await this.shared(
      async () => (await this.redis.eval(ATTEMPT_SCRIPT, 1, this.keyOf(bucket, key), String(this.clock.now().getTime()), String(rule.free), String(rule.maxDelaySeconds * 1000), String(FAILURE_MEMORY_SECONDS * 1000))) as [number, number],
      () => {
        const d = this.fallback.attempt(bucket, key, rule);
        return [d.allowed ? 1 : 0, d.retryAfterSeconds * 1000] as [number, number];
      },
    );
    return allowed === 1 ? { allowed: true, retryAfterSeconds: 0 } : { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
  }

  async succeeded(bucket: string, key: string): Promise<void> {
    await this.shared(async () => void (await this.redis.del(this.keyOf(bucket, key))), () => this.fallback.succeeded(bucket, key));
  }

  async remember(bucket: string, key: string, seconds: number): Promise<void> {
    await this.shared(async () => void (await this.redis.set(this.keyOf(bucket, key), '1', 'PX', seconds * 1000)), () => this.fallback.remember(bucket, key, seconds));
  }

  async remembers(bucket: string, key: string): Promise<boolean> {
    return this.shared(async () => (await this.redis.exists(this.keyOf(bucket, key))) === 1, () => this.fallback.remembers(bucket, key));
  }

  async hit(bucket: string, key: string, rule: RateRule): Promise<RateDecision> {
    return this.shared(
      async () => {
        const [count, ttl] = (await this.redis.eval(HIT_SCRIPT, 1, this.keyOf(bucket, key), String(rule.windowSeconds * 1000))) as [number, number];
        const allowed = count <= rule.limit;
        return {
          allowed,
          remaining: Math.max(0, rule.limit - count),
          retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(ttl / 1000)),
        };
      },
      () => this.fallback.hit(bucket, key, rule),
    );
  }
}
