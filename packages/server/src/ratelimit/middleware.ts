import type { Context, Next } from 'koa';
import { tooManyRequests } from '../app/errors.js';
import { MSG } from '../app/messages.js';
import type { RateLimiter, RateRule } from './limiter.js';

/** Refuses with 429 and a French message once `key(ctx)` used up its rule in this bucket. */
export function rateLimit(limiter: RateLimiter, bucket: string, rule: RateRule, key: (ctx: Context) => string = (ctx) => ctx.ip) {
  return async (ctx: Context, next: Next) => {
    await enforce(limiter, bucket, rule, key(ctx));
    await next();
  };
}

export async function enforce(limiter: RateLimiter, bucket: string, rule: RateRule, key: string): Promise<void> {
  const decision = await limiter.hit(bucket, key, rule);
  if (!decision.allowed) throw tooManyRequests(MSG.rateLimited(decision.retryAfterSeconds), decision.retryAfterSeconds);
}
