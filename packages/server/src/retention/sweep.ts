import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import { expireSupportMessages } from './support.js';
import { expireOidcCodes, expireOidcStates, expireSessions, expireTokens } from './technical.js';

export interface RetentionDeps {
  db: Database;
  clock: Clock;
  log: (message: string) => void;
  /** The sessions' idle limit (SESSION_IDLE_DAYS): a key idle longer is dead. */
  sessionIdleMs: number;
}

export type RetentionKind = 'supportMessages' | 'tokens' | 'sessions' | 'oidcStates' | 'oidcCodes';

/** Rows each purge removes at most per round; the next minute's round takes the rest. */
export const RETENTION_ROUND = 200;

/**
 * The rows kept past their use, removed by the minute sweep (backtests/service.ts startSweeper;
 * docs/server.md "Data retention"): support messages older than 24 months, one-time links expired
 * 30 days ago, idle session keys, expired OpenID Connect states and sign-in codes. Each purge is
 * bounded and idempotent (retention/bounded.ts) and runs whatever another one did: one that fails
 * is logged, the others still run.
 */
export class DataRetention {
  constructor(private readonly deps: RetentionDeps) {}

  async sweep(limit = RETENTION_ROUND): Promise<Record<RetentionKind, number>> {
    const { db, clock, sessionIdleMs } = this.deps;
    const purges: Record<RetentionKind, [string, () => Promise<number>]> = {
      supportMessages: ['support messages older than 24 months', () => expireSupportMessages(db, clock, limit)],
      tokens: ['one-time links expired more than 30 days ago', () => expireTokens(db, clock, limit)],
      sessions: ['idle session keys', () => expireSessions(db, clock, sessionIdleMs, limit)],
      oidcStates: ['expired sign-in states', () => expireOidcStates(db, clock, limit)],
      oidcCodes: ['expired sign-in codes', () => expireOidcCodes(db, clock, limit)],
    };
    const removed = { supportMessages: 0, tokens: 0, sessions: 0, oidcStates: 0, oidcCodes: 0 };
    for (const kind of Object.keys(purges) as RetentionKind[]) {
      const [what, purge] = purges[kind];
      try {
        removed[kind] = await purge();
      } catch (err) {
        this.deps.log(`retention: ${what} not removed: ${(err as Error).message}`);
        continue;
      }
      if (removed[kind] > 0) this.deps.log(`retention: ${removed[kind]} ${what} removed`);
    }
    return removed;
  }
}
