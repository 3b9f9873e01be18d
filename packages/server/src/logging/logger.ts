import { AsyncLocalStorage } from 'node:async_hooks';
import process from 'node:process';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogFormat, LogLevel } from '../config/ops-env.js';

export type { Logger };

/** The request a line is logged under: every line logged while serving it carries its id. */
const current = new AsyncLocalStorage<{ requestId: string }>();

export function withRequestId<T>(requestId: string, work: () => Promise<T>): Promise<T> {
  return current.run({ requestId }, work);
}

export function currentRequestId(): string | undefined {
  return current.getStore()?.requestId;
}

/**
 * Secrets never logged, whatever an object passed to the logger holds: the headers that carry a
 * session key, and any field named like one (docs/deployment.md, "Logs").
 */
export const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers["x-api-key"]',
  'headers.authorization',
  'headers.cookie',
  '*.apiKey',
  '*.api_key',
  '*.token',
  '*.key',
  '*.password',
  'apiKey',
  'token',
  'password',
];

/**
 * Lines written through process.stdout rather than pino's own file-descriptor writer: the same
 * code then runs under Deno, and on Linux writes to a pipe or a file are synchronous, so the last
 * lines before an exit are not lost.
 */
function stdoutDestination(format: LogFormat): DestinationStream {
  if (format === 'json') return { write: (line: string) => void process.stdout.write(line) };
  return {
    write(line: string) {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line);
      } catch {
        process.stdout.write(line);
        return;
      }
      const { time, level, msg, pid: _pid, hostname: _host, ...rest } = entry;
      const label = LEVEL_NAMES[Number(level)] ?? String(level);
      const extra = Object.keys(rest).length ? ' ' + JSON.stringify(rest) : '';
      process.stdout.write(`${new Date(Number(time)).toISOString()} ${label} ${String(msg ?? '')}${extra}\n`);
    },
  };
}

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

export function createLogger(options: { level?: LogLevel; format?: LogFormat; destination?: DestinationStream; base?: Record<string, unknown> } = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { pid: process.pid, ...options.base },
      redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
      // The request id of the request being served, on every line logged while serving it.
      mixin: () => {
        const requestId = currentRequestId();
        return requestId ? { req_id: requestId } : {};
      },
    },
    options.destination ?? stdoutDestination(options.format ?? 'json'),
  );
}

/** Lines about a dependency that stopped answering (Redis, readiness, a closer that failed). */
const WARNINGS = /^(redis: (?!connected again)|readiness: |rate limits: Redis unavailable|shutdown: |bt: requests still running)/;

/**
 * The `log(message)` the services take (app/deps.ts), on a pino logger: plain sentences become
 * `msg`, at info level; lines about an unavailable dependency at warn, failures at error.
 */
export function logFunction(logger: Logger): (message: string) => void {
  return (message: string) => {
    if (/ failed: /.test(message)) logger.error(message);
    else if (WARNINGS.test(message)) logger.warn(message);
    else logger.info(message);
  };
}

// `code` and `state`: an OpenID Connect callback's authorization code (a credential until it is
// exchanged) and the state that binds it to its browser.
const SECRET_PARAMS = new Set(['apikey', 'api_key', 'token', 'key', 'access_token', 'password', 'secret', 'code', 'state']);

/** Paths that carry a one-time token (mailed verification and reset links, API and web app). */
const SECRET_PATHS = [/^(\/api\/auth\/verify-email\/)[^/?#]+/, /^(\/api\/auth\/reset-password\/)[^/?#]+/, /^(\/reset-password\/)[^/?#]+/];

/**
 * A request URL as it may be logged: the token of a verification or reset link, route
 * parameters named like a secret, and the values of key-like query parameters replaced.
 */
export function redactUrl(url: string, params: Record<string, string> = {}): string {
  const query = url.indexOf('?');
  let path = query === -1 ? url : url.slice(0, query);
  for (const pattern of SECRET_PATHS) path = path.replace(pattern, '$1[REDACTED]');
  const secrets = Object.entries(params).filter(([name, value]) => /token|key|secret|password/i.test(name) && value);
  if (secrets.length) {
    const hidden = new Set(secrets.map(([, value]) => value));
    path = path
      .split('/')
      .map((segment) => {
        let decoded = segment;
        try {
          decoded = decodeURIComponent(segment);
        } catch {
          // Left as sent.
        }
        return hidden.has(decoded) || hidden.has(segment) ? '[REDACTED]' : segment;
      })
      .join('/');
  }
  if (query === -1) return path;
  const parts = url
    .slice(query + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A malformed name is logged as sent: it is not one of ours.
      }
      return SECRET_PARAMS.has(decoded.toLowerCase()) ? `${name}=[REDACTED]` : pair;
    });
  return `${path}?${parts.join('&')}`;
}
