import { randomUUID } from 'node:crypto';
import type { Next } from 'koa';
import type { AppContext } from '../app/context.js';
import { isApiPath } from '../app/paths.js';
import type { Metrics } from '../metrics/metrics.js';
import { redactUrl, withRequestId, type Logger } from './logger.js';

/** An incoming X-Request-Id is kept when it looks like an id (a proxy's, a client's), never as free text. */
const SANE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** Whether an unmatched request was for the API; a path too malformed to decode counts as one. */
function apiPath(ctx: AppContext): boolean {
  try {
    return isApiPath(ctx);
  } catch {
    return ctx.path.startsWith('/api');
  }
}

/** The routes whose answer carries a backtest's Server-Timing phases (backtests/routes.ts). */
const BACKTEST_ROUTE = /^\/api\/(run_backtest|upload[a-z_]*|user\/backtests\/run[a-z_]*)$/;

/**
 * First of all middleware: gives the request its id (X-Request-Id, echoed in the answer), runs
 * the rest under it so every line logged meanwhile carries it, then writes one access line and
 * records the request's duration once the answer has gone out (streamed downloads included).
 */
export function requestLogging(logger: Logger | null, metrics: Metrics | null) {
  return async (ctx: AppContext, next: Next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = SANE_ID.test(incoming) ? incoming : randomUUID();
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      try {
        record();
      } catch (err) {
        // Runs in an event handler: a failure here must never take the process down.
        logger?.error(`access log: ${(err as Error).message}`);
      }
    };
    const record = () => {
      const seconds = (performance.now() - started) / 1000;
      const matched = (ctx as unknown as { _matchedRoute?: string | RegExp })._matchedRoute;
      // A pattern, never the raw path: the label set of the metrics stays bounded.
      const route = typeof matched === 'string' ? matched : ctx.path === '/metrics' ? '/metrics' : apiPath(ctx) ? '(unmatched)' : '(web)';
      const status = ctx.res.headersSent || ctx.res.writableEnded ? ctx.res.statusCode : ctx.status;
      metrics?.observeRequest(ctx.method, route, status, seconds);
      if (metrics && status === 200 && typeof matched === 'string' && BACKTEST_ROUTE.test(matched)) {
        const timing = ctx.response.get('Server-Timing');
        if (timing) metrics.observeServerTiming(String(timing));
      }
      logger?.info(
        {
          req_id: requestId,
          method: ctx.method,
          route,
          url: redactUrl(ctx.originalUrl, (ctx as unknown as { params?: Record<string, string> }).params),
          status,
          duration_ms: Math.round(seconds * 10_000) / 10,
          user_id: ctx.state.auth?.user.id ?? null,
          ip: ctx.ip,
          bytes: Number(ctx.res.getHeader('content-length') ?? 0) || undefined,
          aborted: ctx.res.writableFinished ? undefined : true,
        },
        'request',
      );
    };
    ctx.res.once('finish', finish);
    ctx.res.once('close', finish);
    await withRequestId(requestId, next);
  };
}
