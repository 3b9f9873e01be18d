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
import type { QueueOptions } from '../jobs/queue.js';

/** Everything the app talks to, injected (DESIGN §3): tests pass local stand-ins of the same kind. */
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
}
