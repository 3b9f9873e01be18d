/**
 * Starts the bt server from the environment (docs/server.md). The same file runs under Node
 * (`node dist/main.js`, `tsx src/main.ts`) and Deno (`deno run -A src/main.ts`).
 *
 *   main.ts [serve]   migrate (unless AUTO_MIGRATE=false), create the admin on first start, listen
 *   main.ts migrate   apply pending migrations and exit
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { hostname } from 'node:os';
import process from 'node:process';
import { appConfig } from './app/config.js';
import { createApp } from './app/createApp.js';
import { guardConnections } from './app/connection-guard.js';
import { systemClock } from './clock/index.js';
import { migrate, migrator, openDatabase } from './db/index.js';
import { listenFailure } from './config/startup-checks.js';
import { preflight } from './config/preflight.js';
import { DisabledMailer, SmtpMailer } from './mail/index.js';
import { OpenIdConnectProvider } from './oidc/provider.js';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from './ratelimit/index.js';
import { readOpsEnv } from './config/ops-env.js';
import { Closers } from './app/lifecycle.js';
import { handleStopSignals, StartStop, StopDuringStart, testStartHold } from './app/start-stop.js';
import { createLogger, logFunction, type Logger } from './logging/logger.js';
import { Metrics } from './metrics/index.js';
import { describeRedisUrl, openRedis } from './redis/client.js';
import { openStorages } from './storage/index.js';
import { ensureAdmin } from './users/bootstrap.js';
import { bootstrapLibrary } from './datasets/bootstrap.js';
import { OpenAiCompatibleClient } from './gpt/llm.js';
import { openSandbox } from './strategies/sandbox/sandbox.js';
import { builtWebDist } from './web/static.js';
import { NowPaymentsInvoices } from './payments/nowpayments.js';
import { PayPalOrders } from './payments/paypal.js';
import { importFor } from './app/optional-module.js';
import type { StripeGateway } from './payments/gateways.js';
import type { StripeSettings } from './payments/settings.js';

// Until the logger exists (an invalid LOG_* variable), errors go to stderr as plain text.
let logger: Logger | null = null;

async function main(command: string): Promise<void> {
  const ops = readOpsEnv(process.env);
  const own = createLogger({ level: ops.logLevel, format: ops.logFormat, base: { hostname: hostname() } });
  logger = own;
  const log = logFunction(own);
  // A SIGTERM during the start stops it between two steps (app/start-stop.ts, docs/deployment.md).
  const start = new StartStop();
  const signals = handleStopSignals(start, log);
  // Closed newest first at shutdown: what services register later (a job runner) goes before these.
  const closers = new Closers();
  try {
    await serve(command, { ops, logger: own, log, start, signals, closers });
  } catch (err) {
    if (!(err instanceof StopDuringStart)) throw err;
    const failed = await closers.closeAll({ timeoutMs: 10_000, log });
    const unclean = failed.length ? ` (not closed cleanly: ${failed.join(', ')})` : '';
    if (command === 'migrate') {
      log(`bt: migrate stopped (${err.signal}) between two migrations: the others stay pending${unclean}`);
      process.exit(1);
    }
    log(`bt: stopped during the start (${err.signal})${unclean}`);
    process.exit(0);
  }
}

interface StartContext {
  ops: ReturnType<typeof readOpsEnv>;
  logger: Logger;
  log: (message: string) => void;
  start: StartStop;
  signals: ReturnType<typeof handleStopSignals>;
  closers: Closers;
}

async function serve(command: string, { ops, logger, log, start, signals, closers }: StartContext): Promise<void> {
  // Nothing is opened or written before these checks pass (docs/server.md, "Environment").
  const { env, s3, jobs } = await preflight(command, process.env);
  const db = await openDatabase(env.databaseUrl, { dataDir: env.dataDir, poolMax: env.dbPoolMax });
  closers.add('database', () => db.close());
  log(`bt: database ${db.dialect} (${db.location})`);
  start.check();
  const hold = testStartHold(start, log);
  const migrating = { signal: start.signal, applied: hold && ((name: string) => hold(`migration ${name}`)) };

  if (command === 'migrate') {
    const applied = await migrate(db.sequelize, log, migrating);
    log(`bt: ${applied.length} migration(s) applied${applied.length ? ': ' + applied.join(', ') : ''}`);
    await db.close();
    return;
  }

  if (env.autoMigrate) {
    const applied = await migrate(db.sequelize, log, migrating);
    if (applied.length) log(`bt: migrations applied: ${applied.join(', ')}`);
  } else {
    const pending = await migrator(db.sequelize).pending();
    if (pending.length) throw new Error(`${pending.length} pending migration(s) (${pending.map((m) => m.name).join(', ')}): run 'main.ts migrate' first`);
  }
  await ensureAdmin(db, systemClock, env.admin, log);
  start.check();

  const redis = ops.redisUrl ? await openRedis(ops.redisUrl, log) : null;
  if (redis) closers.add('redis', () => redis.quit().catch(() => redis.disconnect()));
  start.check();
  const rateLimiter: RateLimiter = redis ? new RedisRateLimiter(redis, systemClock, { prefix: ops.redisPrefix, log }) : new MemoryRateLimiter(systemClock);
  log(`bt: rate limits: ${redis ? `shared in Redis at ${describeRedisUrl(ops.redisUrl!)} (this process counts alone while Redis is down)` : 'in this process (REDIS_URL not set)'}`);
  const metrics = new Metrics();
  log(`bt: metrics: /metrics ${ops.metricsToken ? 'with the METRICS_TOKEN bearer token' : env.trustProxy ? 'closed (behind a proxy, TRUST_PROXY, it needs METRICS_TOKEN)' : 'for loopback clients only (METRICS_TOKEN not set)'}`);

  const mailer = env.smtpUrl ? new SmtpMailer(env.smtpUrl, env.mailFrom) : new DisabledMailer();
  const identityProviders = env.google
    ? [new OpenIdConnectProvider({ id: 'google', label: 'Google', issuer: env.google.issuer, clientId: env.google.clientId, clientSecret: env.google.clientSecret })]
    : [];
  const { storage, library, description: storageDescription, ping: storagePing } = await openStorages(env.dataDir, s3);
  log(`bt: files: ${storageDescription}`);
  // What a killed process was writing never becomes a file: its staging copies are dropped.
  await storage.clearStaging();
  await bootstrapLibrary(db, library, env.seedDir, log, systemClock, start.signal);
  const { sandbox, setup } = await openSandbox({ python: env.python, ...env.isolation, limits: env.strategy, concurrency: env.strategy.concurrency });
  start.check();
  if (setup.ready) log(`bt: strategy sandbox: ${setup.launcher.description}`);
  else log(`bt: personal strategies (.py import, AI generation, their backtests) are refused: ${setup.reason}`);
  const llm = env.llm ? new OpenAiCompatibleClient(env.llm) : null;
  log(`bt: AI generation: ${llm ? `chat model ${env.llm!.model} at ${env.llm!.baseUrl}` : 'built-in generator (LLM_BASE_URL not set)'}`);
  const { stripe, paypal, nowpayments, seller } = env.payments;
  const payments = {
    stripe: stripe ? await stripeCheckout(stripe) : null,
    paypal: paypal ? new PayPalOrders(paypal) : null,
    crypto: nowpayments ? new NowPaymentsInvoices(nowpayments) : null,
  };
  const offered = Object.entries(payments).filter(([, gateway]) => gateway).map(([name]) => name);
  log(`bt: payments: ${offered.length ? offered.join(', ') : 'none configured (STRIPE_*, PAYPAL_*, NOWPAYMENTS_*)'}`);
  if (paypal && !paypal.webhookId) log('bt: payments: PAYPAL_WEBHOOK_ID is not set: PayPal refunds and disputes cannot be verified, its webhook answers 503 (docs/payments.md)');
  log(`bt: backtests: ${jobs.queue ? `Redis job queue (prefix ${jobs.queue.prefix}), run by bt-worker processes (npm run worker)` : `${jobs.engineThreads} worker thread(s) in this process`}`);
  const webDist = env.webDist ? builtWebDist(env.webDist) : null;
  if (env.webDist && !webDist) log(`bt: no web app build in ${env.webDist} (npm run build -w @bt/web): serving the API only`);
  const app = createApp({
    db,
    storage,
    library,
    sandbox,
    llm,
    clock: systemClock,
    mailer,
    identityProviders,
    rateLimiter,
    payments,
    queue: jobs.queue,
    engineThreads: jobs.engineThreads,
    log,
    logger,
    metrics,
    redis,
    closers,
    storagePing,
    config: appConfig({
      publicUrl: env.publicUrl,
      apiUrl: env.apiUrl,
      supportEmail: env.supportEmail,
      rateLimits: env.rateLimits,
      trustProxy: env.trustProxy,
      proxyHops: env.proxyHops,
      metricsToken: ops.metricsToken,
      resetTokenTtlMs: env.resetTokenTtlMs,
      verifyTokenTtlMs: env.verifyTokenTtlMs,
      uploadLimitBytes: env.uploadLimitBytes,
      strategyQuota: env.strategyQuota,
      topMinTrades: env.topMinTrades,
      topCacheMs: env.topCacheMs,
      webDist,
      sessionIdleMs: env.sessionIdleMs,
      passwordCost: env.passwordCost,
      screenVerification: env.screenVerification,
      cspConnectSrc: env.cspConnectSrc,
      uploads: env.uploads,
      seller,
      imports: env.imports,
      projectRoots: env.seedDir && existsSync(env.seedDir) ? [{ key: 'fixtures', label: 'Données de départ du projet (fixtures)', path: env.seedDir }] : [],
    }),
  });
  if (!env.smtpUrl) {
    const screen = { credits: 'shown in API answers, and they grant the sign-up credits (VERIFY_ON_SCREEN=credits)', 'no-credits': 'shown in API answers; they verify the address but grant no credits (VERIFY_ON_SCREEN=no-credits)', off: 'not available (VERIFY_ON_SCREEN=off)' };
    log(`bt: verification links: ${screen[env.screenVerification]}`);
  }

  // Runs a dead process or an outage left charged and 'running' are refunded (docs/queue.md).
  // Closed before the database and Redis (closers run newest first): waiting requests get their
  // backtest's answer, running jobs finish (docs/queue.md).
  app.closers.add('backtest runner', () => app.services.backtests.close());
  app.metrics.setQueueDepthSource(() => app.services.backtests.runner.queueDepth());
  app.services.backtests.startSweeper(60_000, (jobs.queue?.timeoutMs ?? 0) + 10 * 60_000);

  start.check();
  const server = createServer(app.callback());
  // Idle keep-alive connections outlive the clients' own idle limits (browsers, undici: 4 s; load
  // balancers: 60 s), so it is the client that closes one, never the server under a request the
  // client is starting to write (which the client would see as a broken pipe).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const connections = guardConnections(server, env.connections);
  app.metrics.setConnectionSource(connections);
  if (env.connections.perAddress > 0 && !connections) log('bt: this runtime hands no connection to check: MAX_CONNECTIONS_PER_IP is not applied');
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => reject(listenFailure(err, env.host, env.port)));
    server.listen(env.port, env.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : env.port;
  const runtime = 'Deno' in globalThis ? 'Deno' : `Node ${process.versions.node}`;
  log(`bt: listening on http://${env.host}:${port} (${runtime}, pid ${process.pid})`);
  log(`bt: open ${env.port === 0 ? `http://${env.host}:${port}` : env.publicUrl} — API health: http://${env.host}:${port}/api/health`);

  const stop = gracefulStop(server, closers, { timeoutMs: ops.shutdownTimeoutMs, log });
  signals.running(stop);
  // A signal between the last check and now: the server listens, so it stops as it would later.
  if (start.asked) stop(start.asked);
}

/** Stripe's SDK is loaded only when Stripe is configured (app/optional-module.ts); a failed load stops the start. */
async function stripeCheckout(settings: StripeSettings): Promise<StripeGateway> {
  const { StripeCheckout } = await importFor('Stripe payments (STRIPE_SECRET_KEY)', 'stripe', () => import('./payments/stripe.js'));
  return new StripeCheckout(settings);
}

/**
 * Graceful stop (docs/deployment.md, "Stopping"): the listener closes at once (a load balancer's
 * next connection goes elsewhere), idle keep-alive connections are dropped, running requests get
 * up to `timeoutMs` to finish, then the closers run (job runner, uploads, Redis, database) and
 * the process exits 0. A second signal exits at once with 1.
 */
function gracefulStop(server: Server, closers: Closers, options: { timeoutMs: number; log: (message: string) => void }) {
  let stopping = false;
  return (signal: string) => {
    if (stopping) {
      options.log(`bt: ${signal} received again, exiting now`);
      process.exit(1);
    }
    stopping = true;
    options.log(`bt: ${signal} received, stopping (running requests get up to ${options.timeoutMs} ms)`);
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections?.();
    // A keep-alive connection whose request ends while stopping becomes idle: drop it then too.
    const sweep = setInterval(() => server.closeIdleConnections?.(), 100);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), options.timeoutMs);
    });
    void Promise.race([drained.then(() => 'drained' as const), deadline])
      .then(async (outcome) => {
        clearInterval(sweep);
        clearTimeout(timer);
        if (outcome === 'timeout') {
          options.log('bt: requests still running at the shutdown deadline: their connections are closed');
          server.closeAllConnections?.();
        }
        const failed = await closers.closeAll({ timeoutMs: 10_000, log: options.log });
        options.log(`bt: stopped${failed.length ? ` (not closed cleanly: ${failed.join(', ')})` : ''}`);
      })
      .finally(() => process.exit(0));
  };
}

main(process.argv[2] ?? 'serve').catch((err) => {
  if (logger) logger.fatal(`bt: ${(err as Error).message}`);
  else console.error(`bt: ${(err as Error).message}`);
  process.exit(1);
});
