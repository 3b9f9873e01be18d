import Router from '@koa/router';
import type { AppState } from '../app/context.js';
import type { AppDeps } from '../app/deps.js';
import type { Services } from '../app/services.js';
import { currentUser, requireAdmin } from '../auth/middleware.js';

/** /api/admin/*: every route of this router is behind requireAdmin (spec 3 grows it). */
export function adminRoutes(_services: Services, _deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/admin' });
  router.use(requireAdmin);
  router.get('/ping', async (ctx) => {
    ctx.body = { status: 'ok', admin: true, user_id: currentUser(ctx).user.id };
  });
  return router;
}
