import type { Next } from 'koa';
import type { AppContext } from './context.js';
import { badRequest } from './errors.js';
import { MSG } from './messages.js';

/**
 * The one normalisation of a request path that every guard compares (docs/security.md, "Paths
 * and guards"): percent-decoded, lower-case, runs of slashes collapsed, no trailing slash. It is
 * a superset of what the routers match (they are case-sensitive and accept one trailing slash),
 * so a guard can never be skipped by a spelling the router would still route.
 */
export function guardPathOf(path: string): string {
  let decoded = path;
  // Decoded until stable, so `%2561dmin` cannot hide `admin` either.
  for (let i = 0; i < 3 && decoded.includes('%'); i++) decoded = decodeURIComponent(decoded);
  const collapsed = decoded.toLowerCase().replace(/[/\\]+/g, '/');
  return collapsed.length > 1 && collapsed.endsWith('/') ? collapsed.slice(0, -1) : collapsed;
}

/** True when `guardPath` is `prefix` itself or below it (`prefix` written lower-case, no trailing slash). */
export function isUnder(guardPath: string, prefix: string): boolean {
  return guardPath === prefix || guardPath.startsWith(`${prefix}/`);
}

/** First middleware: computes `ctx.state.guardPath` once; a path that cannot be decoded is a 400. */
export async function normalizePath(ctx: AppContext, next: Next): Promise<void> {
  try {
    ctx.state.guardPath = guardPathOf(ctx.path);
  } catch {
    throw badRequest(MSG.invalidPath);
  }
  await next();
}

/** The request's normalised path (computed by normalizePath, or now when a test calls a guard alone). */
export function guardPath(ctx: AppContext): string {
  return ctx.state.guardPath ?? guardPathOf(ctx.path);
}

export const isApiPath = (ctx: AppContext) => isUnder(guardPath(ctx), '/api');
