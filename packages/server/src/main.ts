/**
 * Starts the bt server from the environment (docs/server.md). The same file runs under Node
 * (`node dist/main.js`, `tsx src/main.ts`) and Deno (`deno run -A src/main.ts`).
 *
 *   main.ts [serve]   migrate (unless AUTO_MIGRATE=false), create the admin on first start, listen
 *   main.ts migrate   apply pending migrations and exit
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import process from 'node:process';
import { appConfig } from './app/config.js';
import { createApp } from './app/createApp.js';
import { systemClock } from './clock/index.js';
import { readEnv } from './config/env.js';
import { readJobsEnv } from './jobs/env.js';
import { migrate, migrator, openDatabase } from './db/index.js';
import { DisabledMailer, SmtpMailer } from './mail/index.js';
import { OpenIdConnectProvider } from './oidc/provider.js';
import { MemoryRateLimiter } from './ratelimit/limiter.js';
import { LocalStorage } from './storage/index.js';
import { ensureAdmin } from './users/bootstrap.js';
import { bootstrapLibrary } from './datasets/bootstrap.js';
import { OpenAiCompatibleClient } from './gpt/llm.js';
import { openSandbox } from './strategies/sandbox/sandbox.js';
import { builtWebDist } from './web/static.js';
import { NowPaymentsInvoices } from './payments/nowpayments.js';
import { PayPalOrders } from './payments/paypal.js';
import { StripeCheckout } from './payments/stripe.js';

const log = (message: string) => console.log(message);

async function main(command: string): Promise<void> {
  const env = readEnv();
  const db = await openDatabase(env.databaseUrl, { dataDir: env.dataDir, poolMax: env.dbPoolMax });
  log(`bt: database ${db.dialect} (${db.location})`);

  if (command === 'migrate') {
    const applied = await migrate(db.sequelize, log);
    log(`bt: ${applied.length} migration(s) applied${applied.length ? ': ' + applied.join(', ') : ''}`);
    await db.close();
    return;
  }
  if (command !== 'serve') throw new Error(`invalid command: ${command} (expected serve or migrate)`);

  if (env.autoMigrate) {
    const applied = await migrate(db.sequelize, log);
    if (applied.length) log(`bt: migrations applied: ${applied.join(', ')}`);
  } else {
    const pending = await migrator(db.sequelize).pending();
    if (pending.length) throw new Error(`${pending.length} pending migration(s) (${pending.map((m) => m.name).join(', ')}): run 'main.ts migrate' first`);
  }
  await ensureAdmin(db, systemClock, env.admin, log);

  const mailer = env.smtpUrl ? new SmtpMailer(env.smtpUrl, env.mailFrom) : new DisabledMailer();
  const identityProviders = env.google
    ? [new OpenIdConnectProvider({ id: 'google', label: 'Google', issuer: env.google.issuer, clientId: env.google.clientId, clientSecret: env.google.clientSecret })]
    : [];
  const library = new LocalStorage(join(env.dataDir, 'library'));
  const storage = new LocalStorage(join(env.dataDir, 'files'));
  // What a killed process was writing never becomes a file: its staging copies are dropped.
  await storage.clearStaging();
  await bootstrapLibrary(db, library, env.seedDir, log);
  const { sandbox, setup } = await openSandbox({ python: env.python, ...env.isolation, limits: env.strategy, concurrency: env.strategy.concurrency });
  if (setup.ready) log(`bt: strategy sandbox: ${setup.launcher.description}`);
  else log(`bt: personal strategies (.py import, AI generation, their backtests) are refused: ${setup.reason}`);
  const llm = env.llm ? new OpenAiCompatibleClient(env.llm) : null;
  log(`bt: AI generation: ${llm ? `chat model ${env.llm!.model} at ${env.llm!.baseUrl}` : 'built-in generator (LLM_BASE_URL not set)'}`);
  const { stripe, paypal, nowpayments, seller } = env.payments;
  const payments = {
    stripe: stripe ? new StripeCheckout(stripe) : null,
    paypal: paypal ? new PayPalOrders(paypal) : null,
    crypto: nowpayments ? new NowPaymentsInvoices(nowpayments) : null,
  };
  const offered = Object.entries(payments).filter(([, gateway]) => gateway).map(([name]) => name);
  log(`bt: payments: ${offered.length ? offered.join(', ') : 'none configured (STRIPE_*, PAYPAL_*, NOWPAYMENTS_*)'}`);
  const jobs = readJobsEnv();
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
    rateLimiter: new MemoryRateLimiter(systemClock),
    payments,
    queue: jobs.queue,
    engineThreads: jobs.engineThreads,
    log,
    config: appConfig({
      publicUrl: env.publicUrl,
      apiUrl: env.apiUrl,
      supportEmail: env.supportEmail,
      rateLimits: env.rateLimits,
      trustProxy: env.trustProxy,
      resetTokenTtlMs: env.resetTokenTtlMs,
      verifyTokenTtlMs: env.verifyTokenTtlMs,
      uploadLimitBytes: env.uploadLimitBytes,
      topMinTrades: env.topMinTrades,
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
  app.services.backtests.startSweeper(60_000, (jobs.queue?.timeoutMs ?? 0) + 10 * 60_000);

  const server = createServer(app.callback());
  // Idle keep-alive connections outlive the clients' own idle limits (browsers, undici: 4 s; load
  // balancers: 60 s), so it is the client that closes one, never the server under a request the
  // client is starting to write (which the client would see as a broken pipe).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(env.port, env.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : env.port;
  const runtime = 'Deno' in globalThis ? 'Deno' : `Node ${process.versions.node}`;
  log(`bt: listening on http://${env.host}:${port} (${runtime}, pid ${process.pid})`);
  log(`bt: open ${env.port === 0 ? `http://${env.host}:${port}` : env.publicUrl} — API health: http://${env.host}:${port}/api/health`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`bt: ${signal} received, stopping`);
    server.close(() => {
      // Waiting requests get their backtest's answer first (the runner's close), then the database closes.
      Promise.allSettled([app.services.uploads.close(), app.services.backtests.close()])
        .then(() => db.close())
        .finally(() => process.exit(0));
    });
    server.closeAllConnections?.();
    setTimeout(() => process.exit(0), 5000).unref?.();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main(process.argv[2] ?? 'serve').catch((err) => {
  console.error(`bt: ${(err as Error).message}`);
  process.exit(1);
});
