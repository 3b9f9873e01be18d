import { resolve } from 'node:path';
import { withoutCredentials } from '../logging/credentials.js';
import { defaultFixturesDir } from '../datasets/seed.js';
import { defaultWebDist } from '../web/static.js';
import { DEFAULT_RATE_LIMITS, type RateLimits, type ScreenVerification } from '../app/config.js';
import { normalizeEmail } from '../auth/rules.js';
import { OWASP_SCRYPT, type ScryptCost } from '../auth/secrets.js';
import { DEFAULT_UPLOAD_LIMITS, type UploadLimits } from '../uploads/limits.js';
import { DEFAULT_IMPORT_LIMITS, type ImportLimits } from '../admin/import/limits.js';
import { allowList } from '../admin/import/source-url.js';
import { DEFAULT_STRATEGY_QUOTA, type StrategyQuotaLimits } from '../strategies/quota.js';
import type { FailureRule, RateRule } from '../ratelimit/limiter.js';
import {
  DEFAULT_NOWPAYMENTS_API,
  DEFAULT_PAYPAL_API,
  DEFAULT_SELLER,
  type NowPaymentsSettings,
  type PayPalSettings,
  type SellerSettings,
  type StripeSettings,
} from '../payments/settings.js';

/** Everything main.ts reads from the environment (documented in docs/server.md). */
export interface ServerEnv {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  apiUrl: string;
  smtpUrl: string | null;
  mailFrom: string;
  supportEmail: string | null;
  google: { clientId: string; clientSecret: string; issuer: string } | null;
  admin: { email: string; password: string | null; username: string };
  rateLimits: RateLimits;
  trustProxy: boolean;
  /** Proxies in front that append to X-Forwarded-For (TRUST_PROXY=N; true is 1); 0 without trustProxy. */
  proxyHops: number;
  /** Connections one address may hold (0: no cap; off behind a proxy) and the process may hold (docs/security.md, "Connections"). */
  connections: { perAddress: number; total: number };
  autoMigrate: boolean;
  resetTokenTtlMs: number;
  verifyTokenTtlMs: number;
  dbPoolMax: number;
  /** Where the library is seeded from on first start (null: no seeding). */
  seedDir: string | null;
  uploadLimitBytes: number;
  topMinTrades: number;
  topCacheMs: number;
  python: string;
  strategy: { cpuSeconds: number; memoryBytes: number; wallMs: number; concurrency: number };
  /** Personal strategies per account, imports and generations per day, failures archived (docs/strategies-python.md). */
  strategyQuota: StrategyQuotaLimits;
  /** bubblewrap, and the ids its children get when the server runs as root (docs/security.md). */
  isolation: { bwrap: string; uid: number; gid: number };
  llm: { baseUrl: string; apiKey: string; model: string } | null;
  /** The built web app served beside the API (null: API only). */
  webDist: string | null;
  sessionIdleMs: number;
  passwordCost: ScryptCost;
  screenVerification: ScreenVerification;
  cspConnectSrc: string[];
  uploads: UploadLimits;
  /** Payment providers (null: not configured, shown as unavailable) and the invoices' seller. */
  payments: { stripe: StripeSettings | null; paypal: PayPalSettings | null; nowpayments: NowPaymentsSettings | null; seller: SellerSettings };
  imports: ImportLimits;
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  // Decimal digits only: Number() also reads 0x50, 1e3 and 0b1, which no one means for a port or a size.
  const value = /^\d{1,16}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`invalid ${name}: ${raw} (expected an integer from ${min} to ${max})`);
  return value;
}

/** `off` (any case) turns a folder setting off; another value is a path from the working directory. */
function folder(env: Env, name: string, cwd: string): string | null | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  return raw.toLowerCase() === 'off' ? null : resolve(cwd, raw);
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new Error(`invalid ${name}: ${env[name]} (expected true or false)`);
}

/** TRUST_PROXY: false (0), true (1: one proxy in front) or how many proxies append to X-Forwarded-For. */
function proxies(env: Env): number {
  const raw = env.TRUST_PROXY?.trim().toLowerCase();
  if (raw && /^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops <= 10) return hops;
  } else if (!raw || ['true', 'yes', 'on', 'false', 'no', 'off'].includes(raw)) {
    return bool(env, 'TRUST_PROXY', false) ? 1 : 0;
  }
  throw new Error(`invalid TRUST_PROXY: ${env.TRUST_PROXY} (expected true, false or the number of proxies in front, 1 to 10)`);
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (!(values as readonly string[]).includes(raw)) throw new Error(`invalid ${name}: ${env[name]} (expected ${values.join(', ')})`);
  return raw as T;
}

/** Space- or comma-separated http(s) origins. */
function origins(env: Env, name: string): string[] {
  const list = (env[name] ?? '').split(/[\s,]+/).filter(Boolean);
  for (const origin of list) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = null;
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin.replace(/\/+$/, '')) throw new Error(`invalid ${name}: ${origin} (expected origins such as https://api.example.com)`);
  }
  return list.map((o) => o.replace(/\/+$/, ''));
}

function url(env: Env, name: string, fallback: string): string {
  const raw = env[name]?.trim() || fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new Error(`invalid ${name}: ${raw} (expected an absolute http(s) URL)`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`invalid ${name}: ${raw} (expected an absolute http(s) URL)`);
  return raw.replace(/\/+$/, '');
}

/**
 * PUBLIC_URL, API_PUBLIC_URL: a scheme, a host and maybe a port, nothing else. The web app is
 * built for the root of its origin and the API answers under /api/ of its own; links were made
 * both ways (`${url}/reset-password` kept a path, `new URL('/login', url)` dropped it), so a
 * path sent half the links to the wrong place.
 */
function origin(env: Env, name: string, fallback: string): string {
  const value = url(env, name, fallback);
  const parsed = new URL(value);
  if (parsed.pathname !== '/' || parsed.search || parsed.hash || parsed.username || parsed.password) {
    throw new Error(`invalid ${name}: ${withoutCredentials(value)} (expected an origin such as https://bt.example.com: no path, query or user)`);
  }
  return parsed.origin;
}

/** A pair of secrets that go together: both or neither. */
function pair(env: Env, first: string, second: string): [string, string] | null {
  const a = env[first]?.trim() || '';
  const b = env[second]?.trim() || '';
  if (!!a !== !!b) throw new Error(`invalid ${first} / ${second}: set both or neither`);
  return a ? [a, b] : null;
}

function readPayments(env: Env): ServerEnv['payments'] {
  const stripe = pair(env, 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET');
  const paypal = pair(env, 'PAYPAL_CLIENT_ID', 'PAYPAL_CLIENT_SECRET');
  const nowpayments = pair(env, 'NOWPAYMENTS_API_KEY', 'NOWPAYMENTS_IPN_SECRET');
  const paypalWebhookId = env.PAYPAL_WEBHOOK_ID?.trim() || null;
  if (paypalWebhookId && !paypal) throw new Error('invalid PAYPAL_WEBHOOK_ID: set PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET too (the webhook is verified by calling PayPal)');
  if (paypalWebhookId && !/^[A-Za-z0-9_-]{1,64}$/.test(paypalWebhookId)) throw new Error(`invalid PAYPAL_WEBHOOK_ID: ${paypalWebhookId.slice(0, 80)} (the webhook's id in the PayPal developer dashboard, such as 1JE4291016473214C)`);
  // Live PayPal without its webhook is half a payment provider: a capture PayPal holds PENDING is
  // never credited, a refund or dispute never takes the credits back (docs/payments.md). Refused;
  // the sandbox and a local API (tests) may go without, the webhook then answering 503.
  if (paypal && !paypalWebhookId && url(env, 'PAYPAL_API_BASE', DEFAULT_PAYPAL_API) === DEFAULT_PAYPAL_API) {
    throw new Error(`missing PAYPAL_WEBHOOK_ID: live PayPal (PAYPAL_API_BASE ${DEFAULT_PAYPAL_API}) needs its webhook's id, or pending captures are never credited and refunds and disputes never verified`);
  }
  const rawRate = env.VAT_RATE?.trim();
  const vatRatePercent = rawRate ? (/^\d{1,3}(?:[.,]\d{1,4})?$/.test(rawRate) ? Number(rawRate.replace(',', '.')) : NaN) : DEFAULT_SELLER.vatRatePercent;
  if (!Number.isFinite(vatRatePercent) || vatRatePercent < 0 || vatRatePercent > 100) throw new Error(`invalid VAT_RATE: ${rawRate} (expected a percentage from 0 to 100, such as 20)`);
  const prefix = env.INVOICE_PREFIX?.trim() ?? DEFAULT_SELLER.invoicePrefix;
  if (!/^[A-Za-z0-9_-]{0,16}$/.test(prefix)) throw new Error(`invalid INVOICE_PREFIX: ${prefix} (up to 16 letters, digits, - or _)`);
  const optional = (name: string) => env[name]?.trim() || null;
  return {
    stripe: stripe ? { secretKey: stripe[0], webhookSecret: stripe[1], apiBase: env.STRIPE_API_BASE?.trim() ? url(env, 'STRIPE_API_BASE', '') : null } : null,
    paypal: paypal ? { clientId: paypal[0], clientSecret: paypal[1], apiBase: url(env, 'PAYPAL_API_BASE', DEFAULT_PAYPAL_API), webhookId: paypalWebhookId } : null,
    nowpayments: nowpayments ? { apiKey: nowpayments[0], ipnSecret: nowpayments[1], apiBase: url(env, 'NOWPAYMENTS_API_BASE', DEFAULT_NOWPAYMENTS_API) } : null,
    seller: {
      name: env.SELLER_NAME?.trim() || DEFAULT_SELLER.name,
      // Lines separated by '|' or new lines: one environment variable holds the whole address.
      address: (env.SELLER_ADDRESS ?? '').split(/\||\n/).map((line) => line.trim()).filter(Boolean),
      email: optional('SELLER_EMAIL'),
      vatId: optional('SELLER_VAT_ID'),
      registration: optional('SELLER_REGISTRATION'),
      vatRatePercent,
      vatNote: env.VAT_NOTE !== undefined ? env.VAT_NOTE.trim() || null : vatRatePercent === 0 ? DEFAULT_SELLER.vatNote : null,
      invoicePrefix: prefix,
    },
  };
}

/** `RATE_LIMIT_LOGIN=10/60` (10 hits per 60 s), or `off`. */
export function parseRateRule(name: string, raw: string | undefined, fallback: RateRule | null): RateRule | null {
  const value = raw?.trim().toLowerCase();
  if (!value) return fallback;
  if (value === 'off' || value === '0') return null;
  const match = /^(\d+)\s*\/\s*(\d+)\s*s?$/.exec(value);
  if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) throw new Error(`invalid ${name}: ${raw} (expected COUNT/SECONDS such as 10/60, or off)`);
  return { limit: Number(match[1]), windowSeconds: Number(match[2]) };
}

/**
 * `RATE_LIMIT_LOGIN_ACCOUNT=5/900`: 5 failed sign-ins of one account at once, then waits doubling
 * from 1 s up to 900 s; or `off`.
 */
export function parseFailureRule(name: string, raw: string | undefined, fallback: FailureRule | null): FailureRule | null {
  const value = raw?.trim().toLowerCase();
  if (!value) return fallback;
  if (value === 'off' || value === '0') return null;
  const match = /^(\d{1,6})\s*\/\s*(\d{1,7})\s*s?$/.exec(value);
  if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) throw new Error(`invalid ${name}: ${raw} (expected FAILURES/MAX_DELAY_SECONDS such as 5/900, or off)`);
  return { free: Number(match[1]), maxDelaySeconds: Number(match[2]) };
}

export function readEnv(env: Env = process.env, cwd = process.cwd()): ServerEnv {
  const port = int(env, 'PORT', 8080, 0, 65535);
  const proxyHops = proxies(env);
  const trustProxy = proxyHops > 0;
  const host = env.HOST?.trim() || '127.0.0.1';
  const publicUrl = origin(env, 'PUBLIC_URL', `http://localhost:${port}`);
  const smtpUrl = env.SMTP_URL?.trim() || null;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) throw new Error(`invalid SMTP_URL: ${withoutCredentials(smtpUrl)} (expected smtp://user:password@host:port or smtps://...)`);
  const clientId = env.GOOGLE_CLIENT_ID?.trim() || '';
  const clientSecret = env.GOOGLE_CLIENT_SECRET?.trim() || '';
  if (!!clientId !== !!clientSecret) throw new Error('invalid GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET: set both or neither');
  const adminEmail = normalizeEmail(env.ADMIN_EMAIL ?? '') || 'admin@bt.local';
  const llmUrl = env.LLM_BASE_URL?.trim() || '';
  const llmKey = env.LLM_API_KEY?.trim() || '';
  const llmModel = env.LLM_MODEL?.trim() || '';
  if ((llmUrl || llmKey || llmModel) && !(llmUrl && llmKey && llmModel)) throw new Error('invalid LLM_BASE_URL / LLM_API_KEY / LLM_MODEL: set all three or none');
  const seed = folder(env, 'SEED_DIR', cwd);
  const webDist = folder(env, 'WEB_DIST', cwd);
  const limits = Object.fromEntries(
    (Object.keys(DEFAULT_RATE_LIMITS) as (keyof RateLimits)[])
      .filter((k) => k !== 'loginAccount')
      .map((k) => {
        const name = `RATE_LIMIT_${k.toUpperCase()}`;
        return [k, parseRateRule(name, env[name], DEFAULT_RATE_LIMITS[k] as RateRule | null)];
      }),
  ) as unknown as RateLimits;
  limits.loginAccount = parseFailureRule('RATE_LIMIT_LOGIN_ACCOUNT', env.RATE_LIMIT_LOGIN_ACCOUNT, DEFAULT_RATE_LIMITS.loginAccount);
  return {
    host,
    port,
    dataDir: resolve(cwd, env.DATA_DIR?.trim() || 'data'),
    databaseUrl: env.DATABASE_URL?.trim() || undefined,
    publicUrl,
    apiUrl: origin(env, 'API_PUBLIC_URL', publicUrl),
    smtpUrl,
    mailFrom: env.MAIL_FROM?.trim() || 'bt <no-reply@bt.local>',
    supportEmail: env.SUPPORT_EMAIL?.trim() || env.ADMIN_EMAIL?.trim() || null,
    google: clientId ? { clientId, clientSecret, issuer: url(env, 'OIDC_ISSUER', 'https://accounts.google.com') } : null,
    admin: { email: adminEmail, password: env.ADMIN_PASSWORD || null, username: env.ADMIN_USERNAME?.trim().toLowerCase() || 'admin' },
    rateLimits: limits,
    trustProxy,
    proxyHops,
    connections: {
      // Behind a proxy every connection comes from the proxy's address: the cap is the proxy's job then.
      perAddress: trustProxy ? 0 : int(env, 'MAX_CONNECTIONS_PER_IP', 128, 0, 1_000_000),
      total: int(env, 'MAX_CONNECTIONS', 10_000, 1, 1_000_000),
    },
    autoMigrate: bool(env, 'AUTO_MIGRATE', true),
    resetTokenTtlMs: int(env, 'RESET_TOKEN_TTL_MINUTES', 60, 1, 7 * 24 * 60) * 60_000,
    verifyTokenTtlMs: int(env, 'VERIFY_TOKEN_TTL_HOURS', 48, 1, 24 * 365) * 3600_000,
    dbPoolMax: int(env, 'DB_POOL_MAX', 10, 1, 1000),
    seedDir: seed === undefined ? defaultFixturesDir() : seed,
    uploadLimitBytes: int(env, 'UPLOAD_LIMIT_MB', 20, 1, 1024) * 1024 * 1024,
    topMinTrades: int(env, 'TOP_MIN_TRADES', 20, 1, 100_000),
    topCacheMs: int(env, 'TOP_CACHE_SECONDS', 10, 0, 3600) * 1000,
    python: env.PYTHON?.trim() || '/usr/bin/python3',
    strategy: {
      cpuSeconds: int(env, 'STRATEGY_CPU_SECONDS', 10, 1, 600),
      memoryBytes: int(env, 'STRATEGY_MEMORY_MB', 768, 64, 65536) * 1024 * 1024,
      wallMs: int(env, 'STRATEGY_TIMEOUT_SECONDS', 20, 1, 3600) * 1000,
      concurrency: int(env, 'STRATEGY_CONCURRENCY', 2, 1, 64),
    },
    strategyQuota: {
      maxPerUser: int(env, 'STRATEGY_MAX_PER_USER', DEFAULT_STRATEGY_QUOTA.maxPerUser, 1, 100_000),
      dailyAttempts: int(env, 'STRATEGY_DAILY_ATTEMPTS', DEFAULT_STRATEGY_QUOTA.dailyAttempts, 1, 100_000),
      failedKept: int(env, 'STRATEGY_FAILED_KEPT', DEFAULT_STRATEGY_QUOTA.failedKept, 0, 100_000),
    },
    isolation: {
      bwrap: env.STRATEGY_BWRAP?.trim() || '/usr/bin/bwrap',
      // Not 0: the kernel ignores the process limit for root, and the point is to leave it.
      uid: int(env, 'STRATEGY_SANDBOX_UID', 65534, 1, 2 ** 32 - 2),
      gid: int(env, 'STRATEGY_SANDBOX_GID', 65534, 1, 2 ** 32 - 2),
    },
    webDist: webDist === undefined ? defaultWebDist() : webDist,
    llm: llmUrl ? { baseUrl: url(env, 'LLM_BASE_URL', llmUrl), apiKey: llmKey, model: llmModel } : null,
    sessionIdleMs: int(env, 'SESSION_IDLE_DAYS', 30, 1, 3650) * 24 * 3600_000,
    passwordCost: { ...OWASP_SCRYPT, logN: int(env, 'PASSWORD_HASH_COST', OWASP_SCRYPT.logN, 14, 20) },
    screenVerification: oneOf(env, 'VERIFY_ON_SCREEN', ['credits', 'no-credits', 'off'] as const, 'no-credits'),
    cspConnectSrc: origins(env, 'CSP_CONNECT_SRC'),
    uploads: {
      ...DEFAULT_UPLOAD_LIMITS,
      concurrency: int(env, 'UPLOAD_CONCURRENCY', DEFAULT_UPLOAD_LIMITS.concurrency, 1, 64),
      maxQueue: int(env, 'UPLOAD_QUEUE', DEFAULT_UPLOAD_LIMITS.maxQueue, 0, 10_000),
      parseMemoryMb: int(env, 'UPLOAD_PARSE_MEMORY_MB', DEFAULT_UPLOAD_LIMITS.parseMemoryMb, 64, 65_536),
      parseTimeoutMs: int(env, 'UPLOAD_PARSE_TIMEOUT_SECONDS', DEFAULT_UPLOAD_LIMITS.parseTimeoutMs / 1000, 1, 3600) * 1000,
      xlsxMaxRows: int(env, 'XLSX_MAX_ROWS', DEFAULT_UPLOAD_LIMITS.xlsxMaxRows, 100, 10_000_000),
      xlsxMaxInflatedBytes: int(env, 'XLSX_MAX_INFLATED_MB', DEFAULT_UPLOAD_LIMITS.xlsxMaxInflatedBytes / 1024 / 1024, 1, 4096) * 1024 * 1024,
    },
    payments: readPayments(env),
    imports: {
      ...DEFAULT_IMPORT_LIMITS,
      maxArchiveBytes: int(env, 'IMPORT_MAX_MB', DEFAULT_IMPORT_LIMITS.maxArchiveBytes / MB, 1, 4096) * MB,
      maxEntryBytes: int(env, 'IMPORT_MAX_FILE_MB', DEFAULT_IMPORT_LIMITS.maxEntryBytes / MB, 1, 4096) * MB,
      maxInflatedBytes: int(env, 'IMPORT_MAX_INFLATED_MB', DEFAULT_IMPORT_LIMITS.maxInflatedBytes / MB, 1, 65_536) * MB,
      urlTimeoutMs: int(env, 'IMPORT_URL_TIMEOUT_SECONDS', DEFAULT_IMPORT_LIMITS.urlTimeoutMs / 1000, 1, 3600) * 1000,
      urlAllow: networks(env, 'IMPORT_URL_ALLOW'),
    },
  };
}

const MB = 1024 * 1024;

/** Comma- or space-separated IP addresses and networks (10.0.0.0/8), each checked. */
function networks(env: Env, name: string): string[] {
  const list = (env[name] ?? '').split(/[\s,]+/).filter(Boolean);
  try {
    allowList(list);
  } catch (err) {
    throw new Error((err as Error).message.replace('IMPORT_URL_ALLOW', name));
  }
  return list;
}
