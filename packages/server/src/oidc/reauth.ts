import type { RateLimiter } from '../ratelimit/limiter.js';

/** How long a third-party sign-in vouches for its session (docs/security.md, "Accounts without a password"). */
export const REAUTH_WINDOW_MINUTES = 10;

const BUCKET = 'provider-signin';

/**
 * Which sessions come from a third-party sign-in made in the last REAUTH_WINDOW_MINUTES. An
 * account created by a Google sign-in has no password; before one is set, or its address changed,
 * the session asking must be that recent: a key stolen from an older session (logs, a shared
 * machine) cannot take the account over. The mark is the session's own, kept in the rate
 * limiter's store (Redis when configured, so every server sees it): a fresh sign-in elsewhere
 * vouches for nothing here.
 */
export class ProviderSignIns {
  constructor(
    private readonly marks: Pick<RateLimiter, 'remember' | 'remembers'>,
    private readonly providers: readonly { id: string; label: string }[],
  ) {}

  async record(userId: number, keyId: number): Promise<void> {
    await this.marks.remember(BUCKET, `${userId}:${keyId}`, REAUTH_WINDOW_MINUTES * 60);
  }

  async isRecent(userId: number, keyId: number): Promise<boolean> {
    return this.marks.remembers(BUCKET, `${userId}:${keyId}`);
  }

  /** The configured provider of that id (its label for messages), or null. */
  provider(id: string): { id: string; label: string } | null {
    return this.providers.find((p) => p.id === id) ?? null;
  }
}
