import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Clock } from '../clock/index.js';
import { MemoryRateLimiter, type RateDecision, type RateLimiter, type RateRule } from './limiter.js';

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
    clock: Clock,
    private readonly options: { prefix?: string; log?: (message: string) => void } = {},
  ) {
    this.fallback = new MemoryRateLimiter(clock);
  }

  /** Keys are hashed: an API key (the `api` bucket) never lands in Redis as such. */
  private keyOf(bucket: string, key: string): string {
    const digest = createHash('sha256').update(key).digest('base64url').slice(0, 32);
    return `${this.options.prefix ?? 'bt:'}rl:${bucket}:${digest}`;
  }

  async hit(bucket: string, key: string, rule: RateRule): Promise<RateDecision> {
    let count: number;
    let ttl: number;
    try {
      [count, ttl] = (await this.redis.eval(HIT_SCRIPT, 1, this.keyOf(bucket, key), String(rule.windowSeconds * 1000))) as [number, number];
    } catch (err) {
      if (!this.degraded) {
        this.degraded = true;
        this.options.log?.(`rate limits: Redis unavailable (${(err as Error).message}); counting in this process until it is back`);
      }
      return this.fallback.hit(bucket, key, rule);
    }
    if (this.degraded) {
      this.degraded = false;
      this.options.log?.('rate limits: Redis is back; limits are shared again');
    }
    const allowed = count <= rule.limit;
    return {
      allowed,
      remaining: Math.max(0, rule.limit - count),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(ttl / 1000)),
    };
  }
}
