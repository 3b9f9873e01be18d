import { OWASP_SCRYPT, type ScryptCost } from '../auth/secrets.js';
import { DEFAULT_SELLER, type SellerSettings } from '../payments/settings.js';
import type { FailureRule, RateRule } from '../ratelimit/limiter.js';
import { DEFAULT_UPLOAD_LIMITS, type UploadLimits } from '../uploads/limits.js';
import { DEFAULT_IMPORT_LIMITS, type ImportLimits } from '../admin/import/limits.js';
import { DEFAULT_STRATEGY_QUOTA, type StrategyQuotaLimits } from '../strategies/quota.js';

export interface RateLimits {
  /** Per client IP. */
  login: RateRule | null;
  /**
   * Failed sign-ins per account, from any address: `free` at once, then waits doubling from 1 s
   * up to `maxDelaySeconds` (auth/attempts.ts; docs/security.md, "Sign-in attempts per account").
   */
  loginAccount: FailureRule | null;
  register: RateRule | null;
  /** Reset request and reset itself, per client IP. */
  reset: RateRule | null;
  /** Verification mails, per account. */
  verify: RateRule | null;
  support: RateRule | null;
  /** Every call made with a key, per key. */
  api: RateRule | null;
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  login: { limit: 10, windowSeconds: 60 },
  loginAccount: { free: 5, maxDelaySeconds: 900 },
  register: { limit: 5, windowSeconds: 3600 },
  reset: { limit: 5, windowSeconds: 900 },
  verify: { limit: 5, windowSeconds: 3600 },
  support: { limit: 5, windowSeconds: 600 },
  api: { limit: 300, windowSeconds: 60 },
};

/** What createApp needs to know beyond its dependencies (main.ts fills it from the environment). */
export interface AppConfig {
  /** Web app base URL (redirects to /login, /profile, links to /reset-password). */
  publicUrl: string;
  /** Where this API is reached from a browser (verification links, OpenID redirect URI). */
  apiUrl: string;
  /** Where support messages are mailed; null: stored only. */
  supportEmail: string | null;
  rateLimits: RateLimits;
  verifyTokenTtlMs: number;
  resetTokenTtlMs: number;
  /** A session key unused this long is refused and deleted. */
  sessionIdleMs: number;
  /** The scrypt cost of new password hashes (weaker ones are upgraded at the next login). */
  passwordCost: ScryptCost;
  /**
   * What a verification link shown on screen (no mail transport configured) does: 'credits'
   * verifies and grants the sign-up credits (a local single-user install), 'no-credits' verifies
   * without credits (proves nothing, mints nothing: the default), 'off' shows no link at all.
   */
  screenVerification: ScreenVerification;
  /** Trust X-Forwarded-* (behind a reverse proxy): the client IP for rate limits. */
  trustProxy: boolean;
  /**
   * How many proxies in front append to X-Forwarded-For (with trustProxy; 1 when unset). The
   * client is the address the outermost one saw, counted from the right: entries further left
   * are what the client itself sent, and anyone can write anything there.
   */
  proxyHops?: number;
  /** Bearer token of GET /metrics; null: loopback clients only (metrics/route.ts). */
  metricsToken: string | null;
  /** JSON / form body limit. */
  bodyLimitBytes: number;
  /** Path prefixes whose bodies the global parser leaves alone (upload routes parse their own). */
  rawBodyPaths: string[];
  /** CSV/XLSX upload of a custom backtest (413 past it). */
  uploadLimitBytes: number;
  /** How many uploads are read and parsed at once, and the bounds of each parse. */
  uploads: UploadLimits;
  /** A .py strategy file. */
  strategyLimitBytes: number;
  /** Strategies one account keeps, imports and generations it starts a day, failures archived (strategies/quota.ts). */
  strategyQuota: StrategyQuotaLimits;
  /** Resolved trades a result needs to appear in the public top strategies. */
  topMinTrades: number;
  /** How long the public top list is kept between reads (docs/server.md "Public top strategies"); 0 reads it every time. */
  topCacheMs: number;
  /** Extra origins the web app may call (the CSP's connect-src), e.g. an API on another host. */
  cspConnectSrc: string[];
  /** A built web app to serve on every non-API GET (null: API only). */
  webDist: string | null;
  /** The seller and VAT printed on invoices. */
  seller: SellerSettings;
  /** The admin's import of output data (archive sizes, source_url limits and allow-list). */
  imports: ImportLimits;
  /** Folders of the project the admin's disk explorer also shows (scope `project`), read-only. */
  projectRoots: { key: string; label: string; path: string }[];
}

export type ScreenVerification = 'credits' | 'no-credits' | 'off';

/** Upload routes: they read their own multipart bodies (app/multipart.ts). */
export const UPLOAD_PATH = '/api/upload_csv_and_backtest';
export const IMPORT_PATH = '/api/user/strategies/import';
export const ADMIN_IMPORT_PATH = '/api/admin/maintenance/import-output';
export const UPLOAD_ROUTE_PATHS = [UPLOAD_PATH, IMPORT_PATH, ADMIN_IMPORT_PATH];
/** Payment provider callbacks: their signatures are checked over the raw body (payments/routes.ts). */
export const STRIPE_WEBHOOK_PATH = '/api/payment/stripe/webhook';
export const CRYPTO_IPN_PATH = '/api/payment/crypto/ipn';
export const PAYPAL_WEBHOOK_PATH = '/api/payment/paypal/webhook';
export const PAYMENT_CALLBACK_PATHS = [STRIPE_WEBHOOK_PATH, CRYPTO_IPN_PATH, PAYPAL_WEBHOOK_PATH];

export function appConfig(partial: Partial<AppConfig> & Pick<AppConfig, 'publicUrl'>): AppConfig {
  return {
    apiUrl: partial.publicUrl,
    supportEmail: null,
    rateLimits: DEFAULT_RATE_LIMITS,
    verifyTokenTtlMs: 48 * 3600_000,
    resetTokenTtlMs: 60 * 60_000,
    sessionIdleMs: 30 * 24 * 3600_000,
    passwordCost: OWASP_SCRYPT,
    screenVerification: 'no-credits',
    trustProxy: false,
    metricsToken: null,
    bodyLimitBytes: 1024 * 1024,
    rawBodyPaths: [...UPLOAD_ROUTE_PATHS, ...PAYMENT_CALLBACK_PATHS],
    uploadLimitBytes: 20 * 1024 * 1024,
    uploads: DEFAULT_UPLOAD_LIMITS,
    strategyLimitBytes: 256 * 1024,
    strategyQuota: DEFAULT_STRATEGY_QUOTA,
    topMinTrades: 20,
    topCacheMs: 10_000,
    webDist: null,
    cspConnectSrc: [],
    seller: DEFAULT_SELLER,
    imports: DEFAULT_IMPORT_LIMITS,
    projectRoots: [],
    ...partial,
  };
}
