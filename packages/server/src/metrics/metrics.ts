import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The phases the backtest routes report in their Server-Timing header (backtests/routes.ts). */
const BACKTEST_PHASES = new Set(['total', 'load', 'charge', 'engine', 'report', 'store', 'queue']);

/**
 * The Prometheus metrics of one API server (docs/deployment.md, "Metrics"), in a registry of its
 * own so that two apps in one process (the tests) never mix their counts.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly backtestDuration: Histogram<'phase'>;
  readonly creditsCharged: Counter<'reason'>;
  readonly creditsRefunded: Counter<'reason'>;
  private queueDepthSource: (() => Promise<number> | number) | null = null;
  private connectionSource: { open(): number; refused(): number } | null = null;
  private lockRetrySource: { readonly count: number } | null = null;

  constructor(options: { defaultMetrics?: boolean } = {}) {
    this.httpDuration = new Histogram({
      name: 'bt_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by route pattern, method and status',
      labelNames: ['method', 'route', 'status'],
      buckets: SECONDS,
      registers: [this.registry],
    });
    this.backtestDuration = new Histogram({
      name: 'bt_backtest_duration_seconds',
      help: 'Server-side time of a backtest served over HTTP, whole (phase="total") and by phase',
      labelNames: ['phase'],
      buckets: SECONDS,
      registers: [this.registry],
    });
    this.creditsCharged = new Counter({
      name: 'bt_credits_charged_total',
      help: 'Credits taken from balances by the ledger (committed spends), by reason',
      labelNames: ['reason'],
      registers: [this.registry],
    });
    this.creditsRefunded = new Counter({
      name: 'bt_credits_refunded_total',
      help: 'Credits given back by the ledger (refunds of failed paid actions), by reason',
      labelNames: ['reason'],
      registers: [this.registry],
    });
    const metrics = this;
    new Gauge({
      name: 'bt_queue_depth',
      help: 'Backtests waiting to run: for a free engine thread, or in the Redis queue for a worker',
      registers: [this.registry],
      async collect() {
        let depth = 0;
        try {
          depth = metrics.queueDepthSource ? await metrics.queueDepthSource() : 0;
        } catch {
          depth = Number.NaN;
        }
        this.set(depth);
      },
    });
    new Gauge({
      name: 'bt_connections_open',
      help: 'Client connections open now, counted by the per-address cap (0 when the cap is off)',
      registers: [this.registry],
      collect() {
        this.set(metrics.connectionSource?.open() ?? 0);
      },
    });
    new Counter({
      name: 'bt_connections_refused_total',
      help: 'Connections answered 429 and closed because their address held as many as MAX_CONNECTIONS_PER_IP',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(metrics.connectionSource?.refused() ?? 0);
      },
    });
    new Counter({
      name: 'bt_db_lock_retries_total',
      help: "Transactions run again because of another's lock: a deadlock or lock wait timeout (MySQL), SQLITE_BUSY past the busy timeout (SQLite)",
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(metrics.lockRetrySource?.count ?? 0);
      },
    });
    if (options.defaultMetrics ?? true) {
      try {
        // CPU, memory, handles, GC and event-loop lag (nodejs_eventloop_lag_*).
        collectDefaultMetrics({ register: this.registry });
      } catch {
        // A runtime without some of the process probes (Deno): the application metrics remain.
      }
    }
  }

  /** Where the connection counts come from (app/connection-guard.ts), read at each scrape. */
  setConnectionSource(source: { open(): number; refused(): number } | null): void {
    this.connectionSource = source;
  }

  /** The database's count of transactions run again (Database.lockRetries), read at each scrape. */
  setLockRetrySource(source: { readonly count: number } | null): void {
    this.lockRetrySource = source;
  }

  /** Where the queue's depth comes from (the backtest runner's `queueDepth()`), read at each scrape. */
  setQueueDepthSource(source: (() => Promise<number> | number) | null): void {
    this.queueDepthSource = source;
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.httpDuration.observe({ method, route, status: String(status) }, seconds);
  }

  /** Records the phases of a backtest from the Server-Timing header its route answered with. */
  observeServerTiming(header: string): void {
    for (const part of header.split(',')) {
      const match = /^\s*([a-z_]+)\s*;\s*dur=([0-9.]+)\s*$/i.exec(part);
      if (match && BACKTEST_PHASES.has(match[1])) this.backtestDuration.observe({ phase: match[1] }, Number(match[2]) / 1000);
    }
  }

  /** One committed ledger row: a spend is a charge, a refund gives back. */
  observeLedger(kind: string, reason: string, amount: number): void {
    if (kind === 'spend' && amount < 0) this.creditsCharged.inc({ reason }, -amount);
    else if (kind === 'refund' && amount > 0) this.creditsRefunded.inc({ reason }, amount);
  }

  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
