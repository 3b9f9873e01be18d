import type { Next } from 'koa';
import type { AppContext } from '../app/context.js';
import type { AppDeps } from '../app/deps.js';
import { forbidden, unauthorized } from '../app/errors.js';
import { MSG } from '../app/messages.js';
import { guardPath } from '../app/paths.js';
import type { User } from '../db/models.js';
import { enforce } from '../ratelimit/middleware.js';
import type { Presence } from '../events/presence.js';
import type { Sessions } from './sessions.js';

/**
 * Download links: the only routes where the key may come in the query string (`token` or
 * `apiKey`), since a plain link cannot send a header. Matched on the normalised path
 * (app/paths.ts). Anywhere else a key in the address is ignored: addresses end up in logs,
 * browser history and Referer headers.
 */
export const QUERY_KEY_ROUTES: readonly RegExp[] = [
  /^\/api\/download\/[^/]+$/,
  /^\/api\/download_csv_by_path\/.+$/,
  /^\/api\/download_owned_csv_by_path\/.+$/,
  // An invoice PDF of the profile's purchase history (docs/payments.md "Invoices").
  /^\/api\/profile\/invoices\/\d{1,9}(\.pdf)?$/,
  // A credit note of the same history (docs/payments.md "Credit notes").
  /^\/api\/profile\/invoices\/credit-notes\/\d{1,9}(\.pdf)?$/,
  // The admin console's plain links (docs/admin.md): billing files and the disk explorer.
  /^\/api\/admin\/factures_download$/,
  /^\/api\/admin\/fs\/download$/,
];

/** The key of a request: `X-API-Key`, then `Authorization: Bearer`, then (download links only) the query string. */
export function keyOf(ctx: AppContext): string | null {
  const header = ctx.get('X-API-Key').trim();
  if (header) return header;
  const authorization = ctx.get('Authorization').trim();
  const bearer = /^Bearer\s+(.+)$/i.exec(authorization);
  if (bearer) return bearer[1].trim();
  const path = guardPath(ctx);
  if (!QUERY_KEY_ROUTES.some((route) => route.test(path))) return null;
  for (const name of ['token', 'apiKey']) {
    const value = ctx.query[name];
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return null;
}

/** Resolves the key into `ctx.state.auth` and counts the call against the key's rate limit. */
export function authenticate(sessions: Sessions, presence: Presence, deps: Pick<AppDeps, 'rateLimiter' | 'config'>) {
  return async (ctx: AppContext, next: Next) => {
    const key = keyOf(ctx);
    ctx.state.keySent = key !== null;
    if (key) {
      const found = await sessions.authenticate(key);
      if (found) {
        ctx.state.auth = found;
        const rule = deps.config.rateLimits.api;
        if (rule) await enforce(deps.rateLimiter, 'api', rule, String(found.keyId));
        await presence.seen(found.user);
      }
    }
    await next();
  };
}

/** 401 without a valid key. */
export function currentUser(ctx: AppContext): { user: User; keyId: number } {
  if (!ctx.state.auth) throw unauthorized(ctx.state.keySent ? MSG.invalidApiKey : MSG.notAuthenticated);
  return ctx.state.auth;
}

export async function requireUser(ctx: AppContext, next: Next): Promise<void> {
  currentUser(ctx);
  await next();
}

/** Every /api/admin/* route goes through this: the role is checked here, on the server. */
export async function requireAdmin(ctx: AppContext, next: Next): Promise<void> {
  const { user } = currentUser(ctx);
  if (user.role !== 'admin') throw forbidden(MSG.adminOnly);
  await next();
}
