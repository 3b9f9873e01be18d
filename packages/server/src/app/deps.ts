import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import type { Mailer } from '../mail/mailer.js';
import type { IdentityProvider } from '../oidc/provider.js';
import type { RateLimiter } from '../ratelimit/limiter.js';
import type { Storage } from '../storage/types.js';
import type { AppConfig } from './config.js';

/** Everything the app talks to, injected (DESIGN §3): tests pass local stand-ins of the same kind. */
export interface AppDeps {
  db: Database;
  storage: Storage;
  clock: Clock;
  mailer: Mailer;
  identityProviders: IdentityProvider[];
  rateLimiter: RateLimiter;
  config: AppConfig;
  /** Server-side log (never sent to clients). */
  log: (message: string) => void;
}
