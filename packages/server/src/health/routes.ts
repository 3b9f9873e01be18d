import type Router from '@koa/router';
import { apiRouter } from '../app/router.js';
import type { AppState } from '../app/context.js';
import type { AppDeps } from '../app/deps.js';
import { MSG } from '../app/messages.js';

export const SERVER_VERSION = '0.1.0';

/** Liveness and database reachability (the start script), and readiness (load balancers). */
export function healthRoutes(deps: AppDeps): Router<AppState> {
  const router = apiRouter();
  const started = Date.now();
  router.get('/api/health', async (ctx) => {
    let database = 'ok';
    try {
      // Bounded as readiness's checks are: a database that hangs (a partition, a frozen server)
      // never ends a query already sent, and a liveness probe gives up after a second or so.
      await withTimeout(deps.db.sequelize.query('SELECT 1'), READY_TIMEOUT_MS);
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
  /**
   * Readiness (docs/deployment.md, "Health and readiness"): whether this server can serve now —
   * database, Redis when REDIS_URL is set, storage — each check bounded in time. A load balancer
   * takes a server out of rotation on 503 and back on 200; /api/health stays the liveness probe.
   */
  router.get('/api/ready', async (ctx) => {
    const checks: Record<string, () => Promise<unknown>> = {
      database: () => deps.db.sequelize.query('SELECT 1'),
      storage: async () => {
        if (deps.storagePing) await deps.storagePing();
        else await Promise.all([deps.storage.ping(), deps.library.ping()]);
      },
    };
    if (deps.redis) {
      const redis = deps.redis;
      checks.redis = () => redis.ping();
    }
    const results = await Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
        try {
          await withTimeout(check(), READY_TIMEOUT_MS);
          return [name, 'ok'] as const;
        } catch (err) {
          deps.log(`readiness: ${name} unavailable: ${(err as Error).message}`);
          return [name, 'error'] as const;
        }
      }),
    );
    const down = results.filter(([, state]) => state !== 'ok').map(([name]) => name);
    ctx.status = down.length ? 503 : 200;
    ctx.body = {
      status: down.length ? 'error' : 'ok',
      ...(down.length ? { detail: MSG.notReady(down.map((name) => READY_LABELS[name] ?? name)) } : {}),
      checks: Object.fromEntries(results),
    };
  });
  return router;
}

const READY_TIMEOUT_MS = 2000;

/** What a check is called in the French detail. */
const READY_LABELS: Record<string, string> = { database: 'base de données', redis: 'Redis', storage: 'stockage des fichiers' };

/**
 * `work`, or a rejection when it has not settled within `ms` of the event loop's time. A timer
 * that fires late says the process was held (a starved CPU, a long garbage collection), not that
 * the check was slow: the time it was held is given back, up to `ms` in all, so a check that
 * hangs is refused within 2 × ms at most. And the rejection waits for the I/O already received
 * (setImmediate runs after the poll phase): timers come first in the event loop's turn, and after
 * a stall an answer that had arrived was beaten by the timer (test/health-event-loop-stall.test.ts).
 */
function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let deadline = performance.now() + ms;
    let spare = ms;
    let settled = false;
    const settle = (fn: () => void) => {
      clearTimeout(timer);
      if (!settled) fn();
      settled = true;
    };
    const fire = () => {
      const late = performance.now() - deadline;
      if (late > 10 && spare > 0) {
        const more = Math.min(late, spare);
        spare -= more;
        deadline = performance.now() + more;
        timer = setTimeout(fire, more);
        return;
      }
      setImmediate(() => settle(() => reject(new Error(`no answer within ${ms} ms`))));
    };
    let timer = setTimeout(fire, ms);
    work.then(
      (value) => settle(() => resolve(value)),
      (err) => settle(() => reject(err)),
    );
  });
}
