import { addressKey } from '../app/connection-guard.js';
import { tooManyRequests } from '../app/errors.js';
import { MSG } from '../app/messages.js';
import type { FailureRule, RateLimiter } from '../ratelimit/limiter.js';

/** How long a client that signed into an account is known to it (docs/security.md). */
export const KNOWN_CLIENT_SECONDS = 30 * 24 * 3600;

const ATTEMPTS = 'signin';
const KNOWN = 'signin-client';

/** One password check under way: `succeeded` forgets its failures and remembers the client. */
export interface PasswordAttempt {
  succeeded(): Promise<void>;
}

/**
 * Failed sign-ins per account, whatever the client address (docs/security.md, "Sign-in attempts
 * per account"). Every check of an account's password goes through `begin`, which refuses with 429
 * while the account must still wait (the delay doubles with each failure, FailureRule) and counts
 * the check as a failure until it succeeds.
 *
 * Guesses spread over many addresses all land on the account's one counter. So that they cannot
 * lock its owner out, a client (an address, an IPv6 /64) that signed into the account with its
 * password in the last 30 days has a counter of its own for that account: the owner's usual
 * places keep signing in while strangers wait, and a guesser on one of them has that counter's
 * delays too.
 */
export class SignInAttempts {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly rule: FailureRule | null,
  ) {}

  /**
   * `account` names the account tried: `user:{id}` when it exists, else the identifier typed (so
   * that an unknown name is refused like an existing one: no way to tell them apart by a 429).
   */
  async begin(account: string, clientIp: string): Promise<PasswordAttempt> {
    const rule = this.rule;
    if (!rule) return { succeeded: async () => {} };
    const place = `${account}|${addressKey(clientIp)}`;
    const counter = (await this.limiter.remembers(KNOWN, place)) ? place : account;
    const decision = await this.limiter.attempt(ATTEMPTS, counter, rule);
    if (!decision.allowed) throw tooManyRequests(MSG.tooManySignInAttempts(decision.retryAfterSeconds), decision.retryAfterSeconds);
    return {
      succeeded: async () => {
        await this.limiter.succeeded(ATTEMPTS, counter);
        if (account.startsWith('user:')) await this.limiter.remember(KNOWN, place, KNOWN_CLIENT_SECONDS);
      },
    };
  }
}
