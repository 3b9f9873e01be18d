import Koa from 'koa';
import { koaBody } from 'koa-body';
import { unreadBodyType } from './content-type.js';
import { adminGate, adminRoutes } from '../admin/routes.js';
import { authenticate } from '../auth/middleware.js';
import { authRoutes } from '../auth/routes.js';
import { backtestRoutes } from '../backtests/routes.js';
import { compareRoutes } from '../compare/routes.js';
import { csvRoutes } from '../csvs/routes.js';
import { datasetRoutes } from '../datasets/routes.js';
import { gptRoutes } from '../gpt/routes.js';
import { publicRoutes } from '../public/routes.js';
import { resultRoutes } from '../results/routes.js';
import { strategyRoutes } from '../strategies/routes.js';
import { healthRoutes } from '../health/routes.js';
import { oidcRoutes } from '../oidc/routes.js';
import { paymentRoutes } from '../payments/routes.js';
import { supportRoutes } from '../support/routes.js';
import { userRoutes } from '../users/routes.js';
import { webApp } from '../web/static.js';
import type { AppState } from './context.js';
import type { AppDeps } from './deps.js';
import { errorMiddleware } from './errorMiddleware.js';
import { refuseDeepBodies } from './json-depth.js';
import { securityHeaders } from './security-headers.js';
import { guardPath, guardPathOf, isApiPath, isUnder, normalizePath } from './paths.js';
import { createServices, type Services } from './services.js';
import { Closers } from './lifecycle.js';
import { requestLogging } from '../logging/access-log.js';
import { Metrics, metricsEndpoint } from '../metrics/index.js';

export type App = Koa<AppState> & { services: Services; deps: AppDeps; metrics: Metrics; closers: Closers };

/**
 * Builds the Koa app from its dependencies (docs/architecture.md §3). One folder per API resource; each
 * exports a router of thin handlers over the services built here. Later resources (backtests,
 * CSV library, strategies, payments) add their router to the list below.
 */
export function createApp(deps: AppDeps): App {
  const app = new Koa<AppState>() as App;
  app.proxy = deps.config.trustProxy;
  // Koa's ctx.ip is the leftmost X-Forwarded-For entry unless told how many to keep from the
  // right: behind nginx ($proxy_add_x_forwarded_for) that entry is whatever the client sent, a new
  // address per request, and no per-address rate limit (login, register, reset) ever applied.
  app.maxIpsCount = deps.config.trustProxy ? (deps.config.proxyHops ?? 1) : 0;
  const metrics = deps.metrics ?? new Metrics({ defaultMetrics: false });
  metrics.setLockRetrySource(deps.db.lockRetries);
  const closers = deps.closers ?? new Closers();
  deps = { ...deps, metrics, closers };
  const services = createServices(deps);
  app.services = services;
  app.deps = deps;
  app.metrics = metrics;
  app.closers = closers;
  closers.add('uploads', () => services.uploads.close());
  // Koa's default handler prints stacks to stderr for every error it sees; ours are answered
  // by errorMiddleware and logged there.
  app.silent = true;

  // Before everything: the request id, the access line and the request metrics see every answer.
  app.use(requestLogging(deps.logger ?? null, metrics));
  const logger = deps.logger;
  app.use(errorMiddleware(logger ? (message) => logger.error(message) : deps.log));
  app.use(metricsEndpoint(metrics, () => deps.config.metricsToken, () => deps.config.trustProxy));
  app.use(securityHeaders({ connectSrc: deps.config.cspConnectSrc, hsts: deps.config.publicUrl.startsWith('https://') }));
  app.use(normalizePath);
  app.use(async (ctx, next) => {
    if (isApiPath(ctx)) ctx.set('Cache-Control', 'no-store');
    await next();
  });
  if (deps.config.webDist) app.use(webApp(deps.config.webDist));
  // JSON and url-encoded forms only: multipart bodies are read by the routes that take them
  // (app/multipart.ts, in memory and bounded), so no route ever writes a temporary file and a
  // multipart body sent anywhere else is never parsed at all.
  const parseBody = koaBody({
    json: true,
    urlencoded: true,
    text: false,
    multipart: false,
    jsonLimit: deps.config.bodyLimitBytes,
    formLimit: deps.config.bodyLimitBytes,
  });
  const rawBodyPaths = deps.config.rawBodyPaths.map((path) => guardPathOf(path));
  app.use(async (ctx, next) => {
    const path = guardPath(ctx);
    if (rawBodyPaths.some((prefix) => isUnder(path, prefix))) return next();
    // A body in a type the parser does not read: noted, and a 415 for the route that reads it (app/content-type.ts).
    const unread = unreadBodyType(ctx);
    if (unread !== null) ctx.state.unreadBody = unread;
    return parseBody(ctx, next);
  });
  app.use(refuseDeepBodies);
  app.use(authenticate(services.sessions, services.presence, deps));
  app.use(adminGate);

  const routers = [
    healthRoutes(deps),
    authRoutes(services, deps),
    oidcRoutes(services, deps),
    userRoutes(services, deps),
    supportRoutes(services, deps),
    adminRoutes(services, deps),
    backtestRoutes(services, deps),
    resultRoutes(services, deps),
    publicRoutes(services, deps),
    csvRoutes(services, deps),
    datasetRoutes(services, deps),
    strategyRoutes(services, deps),
    gptRoutes(services, deps),
    compareRoutes(services, deps),
    paymentRoutes(services),
  ];
  for (const router of routers) {
    app.use(router.routes());
    app.use(router.allowedMethods({ throw: true }));
  }
  return app;
}
