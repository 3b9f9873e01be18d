import type Router from '@koa/router';
import type { Next } from 'koa';
import { apiRouter } from '../app/router.js';
import type { AppContext, AppState } from '../app/context.js';
import type { AppDeps } from '../app/deps.js';
import { guardPath, isUnder } from '../app/paths.js';
import type { Services } from '../app/services.js';
import { currentUser, requireAdmin } from '../auth/middleware.js';
import { registerArchiveRoutes } from './archive-routes.js';
import { registerDiskRoutes } from './disk-routes.js';
import { registerMaintenanceRoutes } from './maintenance-routes.js';
import { registerMetricsRoutes } from './metrics-routes.js';
import { registerPaymentAttentionRoutes } from './payment-attention-routes.js';
import { registerUserRoutes } from './users-routes.js';

/**
 * Every path under /api/admin, in any letter case, spelling or trailing slash, is refused to
 * non-admins before routing, so an unknown admin path answers 401/403 like a known one (nothing
 * to probe) and no variant the router might still match slips past.
 */
export async function adminGate(ctx: AppContext, next: Next): Promise<void> {
  if (isUnder(guardPath(ctx), '/api/admin')) return requireAdmin(ctx, next);
  await next();
}

/**
 * /api/admin/* (docs/admin.md): one router, so its route list is the whole admin surface (the
 * guard tests read it). adminGate already checked the role; the router checks again.
 */
export function adminRoutes(services: Services, deps: AppDeps): Router<AppState> {
  const router = apiRouter({ prefix: '/api/admin' });
  router.use(requireAdmin);
  router.get('/ping', async (ctx) => {
    ctx.body = { status: 'ok', admin: true, user_id: currentUser(ctx).user.id };
  });
  const { admin } = services;
  registerUserRoutes(router, admin.users);
  registerMetricsRoutes(router, services, deps, admin.backtests);
  registerArchiveRoutes(router, services, admin.archive);
  registerDiskRoutes(router, admin.disk);
  registerMaintenanceRoutes(router, services, deps, admin.importer, admin.invoices);
  registerPaymentAttentionRoutes(router, services.paymentAttention);
  return router;
}
