import type { Context, Next } from 'koa';
import { addressKey } from '../app/connection-guard.js';
import { tooManyRequests } from '../app/errors.js';
import { MSG } from '../app/messages.js';
import type { RateLimiter, RateRule } from './limiter.js';

/**
 * The client a per-address limit counts: an IPv4 address as itself, an IPv6 address by its /64
 * (the smallest block a subscriber is given, as the connection cap counts it), so that a fresh
 * address of the same block for every request does not buy a fresh count.
 */
export const clientKey = (ctx: Context) => addressKey(ctx.ip);

/** Refuses with 429 and a French message once `key(ctx)` used up its rule in this bucket. */
export function rateLimit(limiter: RateLimiter, bucket: string, rule: RateRule, key: (ctx: Context) => string = clientKey) {
  return async (ctx: Context, next: Next) => {
    await enforce(limiter, bucket, rule, key(ctx));
    await next();
  };
}

export async function enforce(limiter: RateLimiter, bucket: string, rule: RateRule, key: string): Promise<void> {
  const decision = await limiter.hit(bucket, key, rule);
  if (!decision.allowed) throw tooManyRequests(MSG.rateLimited(decision.retryAfterSeconds), decision.retryAfterSeconds);
}
