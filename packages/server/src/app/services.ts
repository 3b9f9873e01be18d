import { Accounts } from '../auth/accounts.js';
import { Sessions } from '../auth/sessions.js';
import { OneTimeTokens } from '../auth/tokens.js';
import { CreditLedger } from '../credits/ledger.js';
import { EventLog } from '../events/log.js';
import { Presence } from '../events/presence.js';
import { Statistics } from '../events/statistics.js';
import { IdentityLinking } from '../oidc/linking.js';
import { SignInCodes } from '../oidc/codes.js';
import { OidcFlow } from '../oidc/flow.js';
import { ProviderSignIns } from '../oidc/reauth.js';
import { Support } from '../support/service.js';
import { DataRetention } from '../retention/sweep.js';
import { AccountInactivity } from '../users/inactivity.js';
import { AccountPurge } from '../users/purge.js';
import { Profiles } from '../users/profile.js';
import { Recreations } from '../users/recreations.js';
import { Backtests } from '../backtests/service.js';
import { QueueRunner } from '../jobs/queue.js';
import { ThreadRunner } from '../jobs/runner.js';
import { EnginePool } from '../jobs/pool.js';
import { threadedCodec } from '../strategies/sandbox/codec.js';
import { Comparator } from '../compare/service.js';
import { CsvShop } from '../csvs/service.js';
import { DatasetStore } from '../datasets/store.js';
import { StrategyGenerator } from '../gpt/service.js';
import { ListingCache } from '../public/listing-cache.js';
import { TopStrategies, TOP_LIMIT, type PublicRun } from '../public/service.js';
import { ResultCharts } from '../results/chart.js';
import { Results } from '../results/service.js';
import { textWorkbookReader } from '../results/workbook-text.js';
import { StrategyArchive } from '../strategies/archive.js';
import { UserStrategies } from '../strategies/service.js';
import { CandleUploads } from '../uploads/candle-uploads.js';
import { PaymentCallbacks } from '../payments/callbacks.js';
import { Reversals } from '../payments/reversals.js';
import { PaymentAttention } from '../payments/attention.js';
import { Fulfilment } from '../payments/fulfilment.js';
import { NO_PAYMENT_GATEWAYS } from '../payments/gateways.js';
import { Invoices } from '../payments/invoices.js';
import { CreditNotes } from '../payments/credit-notes.js';
import { PaymentRecords } from '../payments/records.js';
import { Payments } from '../payments/service.js';
import { Subscriptions } from '../payments/subscriptions.js';
import { createAdminServices } from '../admin/services.js';
import type { AppDeps } from './deps.js';

/** The business rules, built once per app from its dependencies; route handlers call these. */
export function createServices(deps: AppDeps) {
  const { db, clock, mailer, config, log } = deps;
  const sessions = new Sessions(db, clock, config.sessionIdleMs);
  const tokens = new OneTimeTokens(db, clock);
  // Every source of the admin statistics records through this one log (docs/admin.md).
  const events = new EventLog(db, clock, log);
  const metrics = deps.metrics;
  const ledger = new CreditLedger(
    db,
    (entry, t) => events.fromLedger(entry, t),
    // Counted once the row is committed: a rolled-back charge was never charged.
    (entry) => metrics?.observeLedger(entry.kind, entry.reason, entry.amount),
  );
  const presence = new Presence(db, clock, events, log);
  const statistics = new Statistics(db, clock);
  const recreations = new Recreations(db);
  const accounts = new Accounts({
    db,
    clock,
    mailer,
    sessions,
    tokens,
    ledger,
    recreations,
    events,
    log,
    config, // by reference: the URLs can be set once the server listens
  });
  // Plans are ended with the account they belong to (profiles), so they come before it.
  const gateways = deps.payments ?? NO_PAYMENT_GATEWAYS;
  // Payment situations for the admin (docs/payments.md "Situations for the admin").
  const paymentAttention = new PaymentAttention({ db, clock, log });
  const subscriptions = new Subscriptions({ db, clock, gateways, events, attention: paymentAttention, log });
  const providerSignIns = new ProviderSignIns(deps.rateLimiter, deps.identityProviders);
  // Backtests and extractions run off the event loop: worker threads here, or worker processes behind Redis.
  const runner = deps.queue ? new QueueRunner(deps.queue, { db, ledger, storage: deps.storage, log }) : new ThreadRunner(deps.engineThreads);
  // The public top list's cache is made below; the deletion only calls it once the app runs.
  const purge = new AccountPurge({
    db,
    storage: deps.storage,
    ledger,
    log,
    clock,
    forgetPublicListing: () => publicListing.forget(),
    dropWaitingRuns: runner.kind === 'queue' ? (runIds) => runner.dropWaiting(runIds) : undefined,
  });
  const profiles = new Profiles({ db, clock, accounts, sessions, tokens, recreations, subscriptions, events, passwordCost: config.passwordCost, providerSignIns, purge });
  // Inactive accounts warned, then archived as a deletion (docs/server.md "Inactive accounts").
  const inactivity = new AccountInactivity({ db, clock, mailer, profiles, urls: config, log });
  const linking = new IdentityLinking(db, accounts, sessions, events);
  // A sign-in's return carries a one-time code, redeemed for the key (docs/security.md "Google sign-in").
  const oidc = new OidcFlow(db, clock, linking, new SignInCodes(db, clock, sessions, providerSignIns), config, log);
  const support = new Support(db, mailer, config.supportEmail, log);

  // The working area (docs/product.md part 2): official data, runs and results, the CSV shop, personal strategies.
  const { storage, library, sandbox, llm } = deps;
  const sandboxLimits = sandbox.limits;
  // So do the library's imports (their month files' RSI, CSV and IPC), the parsing of results'
  // workbooks and a personal strategy's sandbox request and answer (their JSON): on the engine
  // threads, or in queue mode on threads of their own, started by the first such task (docs/queue.md).
  const importPool = runner.kind === 'threads' ? runner.pool : new EnginePool(deps.engineThreads, false);
  if (runner.kind !== 'threads') deps.closers?.add('library import threads', () => importPool.close());
  sandbox.useCodec?.(threadedCodec(importPool.sandbox));
  // The upload parse processes also read the library's CSVs that a reindex finds stale.
  const uploads = new CandleUploads(config.uploads, log);
  const datasets = new DatasetStore(db, library, log, importPool, uploads);
  const archive = new StrategyArchive(db, storage, clock, log);
  const strategies = new UserStrategies({ db, storage, sandbox, archive, clock, maxBytes: config.strategyLimitBytes, limits: sandboxLimits, quota: config.strategyQuota, log });
  const publicListing = new ListingCache<Map<string, PublicRun>>(config.topCacheMs, clock);
  const results = new Results(db, storage, publicListing, async (bytes) => textWorkbookReader(await importPool.workbook(bytes)), log);
  const charts = new ResultCharts({ results, datasets, storage });
  // Rows past their use (docs/server.md "Data retention"), removed by the same minute sweep.
  const retention = new DataRetention({ db, clock, log, sessionIdleMs: config.sessionIdleMs });
  const backtests = new Backtests({ db, storage, ledger, datasets, strategies, events, clock, sandboxLimits, runner, log, publicListing, accountPurge: purge, accountInactivity: inactivity, retention });
  const topStrategies = new TopStrategies(db, results, publicListing, { minTrades: config.topMinTrades, limit: TOP_LIMIT });
  const csvShop = new CsvShop({ db, storage, datasets, ledger, clock, runner, log });
  const comparator = new Comparator(db);
  const generator = new StrategyGenerator({ strategies, archive, llm, log });

  // Payments (docs/payments.md): records of every attempt, credits once, plans, invoices.
  const paymentRecords = new PaymentRecords(db, clock, events);
  // Invoices' and credit notes' PDFs are drawn on the engine threads (or the import threads in queue mode).
  const drawPdf = (content: Parameters<EnginePool['invoicePdf']>[0]) => importPool.invoicePdf(content);
  const invoices = new Invoices({ db, storage, clock, seller: config.seller, log, drawPdf });
  const fulfilment = new Fulfilment({ db, clock, ledger, records: paymentRecords, invoices, subscriptions, attention: paymentAttention, log });
  const payments = new Payments({ db, clock, gateways, records: paymentRecords, fulfilment, subscriptions, invoices, attention: paymentAttention, urls: config, log });
  const creditNotes = new CreditNotes({ db, storage, clock, seller: config.seller, log, drawPdf });
  const reversals = new Reversals({ db, clock, ledger, subscriptions, events, creditNotes, attention: paymentAttention, log });
  const paymentCallbacks = new PaymentCallbacks({ gateways, records: paymentRecords, fulfilment, subscriptions, reversals, attention: paymentAttention, log });
  const admin = createAdminServices(deps, { ledger, profiles, datasets, uploads });
  return {
    sessions, tokens, ledger, events, presence, statistics, recreations, accounts, profiles, purge, inactivity, retention, linking, oidc, support,
    datasets, archive, strategies, results, charts, backtests, topStrategies, csvShop, comparator, generator, uploads,
    paymentRecords, invoices, creditNotes, subscriptions, fulfilment, payments, paymentCallbacks, paymentAttention, admin,
  };
}

export type Services = ReturnType<typeof createServices>;
