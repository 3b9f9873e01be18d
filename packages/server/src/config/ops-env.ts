type Env = Record<string, string | undefined>;

export type LogFormat = 'json' | 'text';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** The operations settings main.ts reads (docs/deployment.md, "Environment"). */
export interface OpsEnv {
  /** Redis for shared rate limits and readiness (and the job queue); null: none, all in-process. */
  redisUrl: string | null;
  /** Prefix of every key this deployment writes to Redis. */
  redisPrefix: string;
  logLevel: LogLevel;
  /** json: one JSON object a line (for collectors); text: `time level message` for a terminal. */
  logFormat: LogFormat;
  /** A bearer token /metrics asks for; null: /metrics answers loopback clients only. */
  metricsToken: string | null;
  /** How long a SIGTERM waits for running requests before closing what is left. */
  shutdownTimeoutMs: number;
}

export function readOpsEnv(env: Env): OpsEnv {
  const redisUrl = env.REDIS_URL?.trim() || null;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) throw new Error(`invalid REDIS_URL: expected redis://host:port[/db] or rediss://...`);
  const redisPrefix = env.REDIS_PREFIX?.trim() || 'bt:';
  if (!/^[A-Za-z0-9:_.-]{1,64}$/.test(redisPrefix)) throw new Error(`invalid REDIS_PREFIX: ${redisPrefix} (up to 64 letters, digits, ':', '_', '.', '-')`);
  const levels: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
  const logLevel = (env.LOG_LEVEL?.trim().toLowerCase() || 'info') as LogLevel;
  if (!levels.includes(logLevel)) throw new Error(`invalid LOG_LEVEL: ${env.LOG_LEVEL} (expected ${levels.join(', ')})`);
  const logFormat = (env.LOG_FORMAT?.trim().toLowerCase() || 'json') as LogFormat;
  if (logFormat !== 'json' && logFormat !== 'text') throw new Error(`invalid LOG_FORMAT: ${env.LOG_FORMAT} (expected json or text)`);
  const metricsToken = env.METRICS_TOKEN?.trim() || null;
  if (metricsToken && metricsToken.length < 16) throw new Error('invalid METRICS_TOKEN: at least 16 characters');
  const rawTimeout = env.SHUTDOWN_TIMEOUT_MS?.trim();
  const shutdownTimeoutMs = rawTimeout ? (/^\d{1,16}$/.test(rawTimeout) ? Number(rawTimeout) : NaN) : 25_000;
  if (!Number.isInteger(shutdownTimeoutMs) || shutdownTimeoutMs < 0 || shutdownTimeoutMs > 600_000) throw new Error(`invalid SHUTDOWN_TIMEOUT_MS: ${rawTimeout} (expected 0 to 600000)`);
  return { redisUrl, redisPrefix, logLevel, logFormat, metricsToken, shutdownTimeoutMs };
}
