import { Op } from 'sequelize';
import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import { deleteDue } from './bounded.js';

const DAY_MS = 24 * 3600_000;

/**
 * How long a one-time link's row (verification, password reset) stays after it expired: a used or
 * expired link answers as an unknown one, so the row only says that a link was sent to an account
 * and when, a technical trace kept as the logs are (the legal notice's 30 to 90 days).
 */
export const TOKEN_KEPT_DAYS = 30;

/** `user_tokens` expired more than TOKEN_KEPT_DAYS ago, used or not, at most `limit` a round. */
export function expireTokens(db: Database, clock: Clock, limit: number): Promise<number> {
  const cutoff = new Date(clock.now().getTime() - TOKEN_KEPT_DAYS * DAY_MS);
  return deleteDue(db, db.models.UserToken, { expiresAt: { [Op.lt]: cutoff } }, [['expiresAt', 'ASC'], ['id', 'ASC']], limit);
}

/**
 * Session keys idle longer than `idleMs` (auth/sessions.ts): dead already (a request with one is
 * answered 401 and deletes it), but a key nobody presents again stayed for good, with its account
 * and its last use. A key never touched since it was issued (`last_used_at` empty: keys older than
 * migration 0003) counts from its creation.
 */
export async function expireSessions(db: Database, clock: Clock, idleMs: number, limit: number): Promise<number> {
  const cutoff = new Date(clock.now().getTime() - idleMs);
  const { ApiKey } = db.models;
  const idle = await deleteDue(db, ApiKey, { lastUsedAt: { [Op.lt]: cutoff } }, [['lastUsedAt', 'ASC'], ['id', 'ASC']], limit);
  const never = await deleteDue(db, ApiKey, { lastUsedAt: null, createdAt: { [Op.lt]: cutoff } }, [['id', 'ASC']], limit);
  return idle + never;
}

/**
 * OpenID Connect states past their 10 minutes (oidc/flow.ts): each sign-in's start deletes the
 * expired ones already; these are those left when nobody starts one again. They name no one (hashes,
 * a nonce, a verifier, the page to go back to), so they go as soon as they expire.
 */
export function expireOidcStates(db: Database, clock: Clock, limit: number): Promise<number> {
  return deleteDue(db, db.models.OidcState, { expiresAt: { [Op.lt]: clock.now() } }, [['id', 'ASC']], limit);
}

/**
 * Sign-in codes past their minute (oidc/codes.ts) that nobody redeemed: a redeem deletes its own
 * row, and an expired one is refused anyway. They name an account, so they go once expired.
 */
export function expireOidcCodes(db: Database, clock: Clock, limit: number): Promise<number> {
  return deleteDue(db, db.models.OidcCode, { expiresAt: { [Op.lt]: clock.now() } }, [['expiresAt', 'ASC'], ['id', 'ASC']], limit);
}
