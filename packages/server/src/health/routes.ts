import type Router from '@koa/router';
import { apiRouter } from '../app/router.js';
import type { AppState } from '../app/context.js';
import type { AppDeps } from '../app/deps.js';
import { MSG } from '../app/messages.js';

export const SERVER_VERSION = '0.1.0';

/** Liveness and database reachability, for load balancers and the start script. */
export function healthRoutes(deps: AppDeps): Router<AppState> {
  const router = apiRouter();
  const started = Date.now();
  router.get('/api/health', async (ctx) => {
    let database = 'ok';
    try {
      await deps.db.sequelize.query('SELECT 1');
    } catch (err) {
      deps.log(`health check: database unreachable: ${(err as Error).message}`);
      database = 'error';
    }
    ctx.status = database === 'ok' ? 200 : 503;
    ctx.body = {
      status: database === 'ok' ? 'ok' : 'error',
      ...(database === 'ok' ? {} : { detail: MSG.databaseDown }),
      database,
      dialect: deps.db.dialect,
      runtime: 'Deno' in globalThis ? 'deno' : 'node',
      version: SERVER_VERSION,
      mail: deps.mailer.configured,
      sign_in: deps.identityProviders.map((p) => p.id),
      uptime_s: Math.round((Date.now() - started) / 1000),
    };
  });
  return router;
}
