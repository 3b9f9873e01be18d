import type Router from '@koa/router';
import { apiRouter } from '../app/router.js';
import type { AppState } from '../app/context.js';
import type { AppDeps } from '../app/deps.js';
import { bodyOf, text, textOf } from '../app/input.js';
import { MSG } from '../app/messages.js';
import type { Services } from '../app/services.js';
import { rateLimit } from '../ratelimit/middleware.js';

export function supportRoutes(services: Services, deps: AppDeps): Router<AppState> {
  const router = apiRouter();
  const rule = deps.config.rateLimits.support;
  const limit = rule ? rateLimit(deps.rateLimiter, 'support', rule) : async (_: unknown, next: () => Promise<unknown>) => next();

  router.post('/api/support', limit, async (ctx) => {
    const body = bodyOf(ctx);
    const meta = body.meta && typeof body.meta === 'object' ? (body.meta as Record<string, unknown>) : {};
    const { emailed } = await services.support.submit(
      {
        type: text(body, 'type') || 'contact',
        firstName: textOf(body, ['firstName', 'first_name']),
        lastName: textOf(body, ['lastName', 'last_name']),
        email: text(body, 'email'),
        message: text(body, 'message'),
        path: typeof meta.path === 'string' ? meta.path : undefined,
        ts: typeof meta.ts === 'string' || typeof meta.ts === 'number' ? meta.ts : undefined,
      },
      ctx.state.auth?.user.id ?? null,
    );
    ctx.status = 201;
    ctx.body = { status: 'success', emailed, message: MSG.supportSent };
  });

  return router;
}
