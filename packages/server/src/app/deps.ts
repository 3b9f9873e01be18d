import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import type { Mailer } from '../mail/mailer.js';
import type { IdentityProvider } from '../oidc/provider.js';
import type { RateLimiter } from '../ratelimit/limiter.js';
import type { Storage } from '../storage/types.js';
import type { LlmClient } from '../gpt/llm.js';
import type { StrategySandbox } from '../strategies/sandbox/sandbox.js';
import type { PaymentGateways } from '../payments/gateways.js';
import type { AppConfig } from './config.js';
import type { Redis } from 'ioredis';
import type { Logger } from '../logging/logger.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Closers } from './lifecycle.js';
import type { QueueOptions } from '../jobs/queue.js';

/** Everything the app talks to, injected (docs/architecture.md §3): tests pass local stand-ins of the same kind. */
export interface AppDeps {
  db: Database;
  storage: Storage;
  /** The official CSV library (DATA_DIR/library): month files and their Arrow copies. */
  library: Storage;
  /** Where personal strategies run (python3 -I -S in a subprocess). */
  sandbox: StrategySandbox;
  /** The chat model of AI generation; null: the built-in generator. */
  llm: LlmClient | null;
  clock: Clock;
  mailer: Mailer;
  identityProviders: IdentityProvider[];
  rateLimiter: RateLimiter;
  config: AppConfig;
  /** Stripe, PayPal and crypto (docs/payments.md); absent or null: that method is unavailable. */
  payments?: PaymentGateways;
  /** The Redis job queue of backtests (REDIS_URL, docs/queue.md); absent: worker threads in this process. */
  queue?: QueueOptions | null;
  /** Engine threads of this process (default: the cores). */
  engineThreads?: number;
  /** Server-side log (never sent to clients). */
  log: (message: string) => void;
  /**
   * The structured logger behind `log` (main.ts: pino, JSON lines); with it the app writes an
   * access line per request with its id. Absent (most tests): no access log.
   */
  logger?: Logger;
  /** Prometheus metrics (/metrics); absent: the app makes its own, without the process metrics. */
  metrics?: Metrics;
  /** The Redis connection of REDIS_URL (rate limits, readiness); absent or null: none configured. */
  redis?: Redis | null;
  /** What main.ts closes at shutdown; services register theirs here (app.closers). */
  closers?: Closers;
  /** Readiness of the storage backend(s) (main.ts: local folders or the S3 bucket). */
  storagePing?: () => Promise<void>;
}
