import Router from '@koa/router';
import type { Next } from 'koa';
import type { AppContext, AppState } from '../app/context.js';
import type { AppDeps } from '../app/deps.js';
import type { Services } from '../app/services.js';
import { currentUser, requireAdmin } from '../auth/middleware.js';

/**
 * Every path under /api/admin is refused to non-admins before routing, so an unknown admin
 * path answers 401/403 like a known one (nothing to probe).
 */
export async function adminGate(ctx: AppContext, next: Next): Promise<void> {
  if (ctx.path === '/api/admin' || ctx.path.startsWith('/api/admin/')) return requireAdmin(ctx, next);
  await next();
}

/** /api/admin/* (spec 3 grows it); adminGate already checked the role, the router checks again. */
export function adminRoutes(_services: Services, _deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/admin' });
  router.use(requireAdmin);
  router.get('/ping', async (ctx) => {
    ctx.body = { status: 'ok', admin: true, user_id: currentUser(ctx).user.id };
  });
  return router;
}
