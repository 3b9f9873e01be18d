import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appConfig, type AppConfig, type RateLimits } from '../../src/app/config.js';
import { createApp, type App } from '../../src/app/createApp.js';
import { ManualClock } from '../../src/clock/index.js';
import type { Database } from '../../src/db/index.js';
import { DisabledMailer, SmtpMailer, type Mailer } from '../../src/mail/index.js';
import type { IdentityProvider } from '../../src/oidc/provider.js';
import { MemoryRateLimiter } from '../../src/ratelimit/limiter.js';
import { LocalStorage } from '../../src/storage/index.js';

export const NO_LIMITS: RateLimits = { login: null, register: null, reset: null, verify: null, support: null, api: null };

export interface TestApp {
  app: App;
  url: string;
  clock: ManualClock;
  db: Database;
  logs: string[];
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface RequestOptions {
  json?: unknown;
  form?: FormData;
  body?: string;
  key?: string;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/**
 * The real app from createApp, behind a real HTTP listener on 127.0.0.1:0 (app.callback(), as
 * Koa's own tests do), with a manual clock and a throwaway storage directory.
 */
export async function startTestApp(
  db: Database,
  options: { mailer?: Mailer; smtpUrl?: string; providers?: IdentityProvider[]; config?: Partial<AppConfig> } = {},
): Promise<TestApp> {
  const clock = new ManualClock(Date.parse('2026-01-15T10:00:00Z'));
  const storageDir = mkdtempSync(join(tmpdir(), 'bt-storage-'));
  const logs: string[] = [];
  const mailer = options.mailer ?? (options.smtpUrl ? new SmtpMailer(options.smtpUrl, 'bt <no-reply@bt.test>') : new DisabledMailer());
  let server: Server | undefined;
  const config = appConfig({ publicUrl: 'http://web.bt.test', apiUrl: 'http://placeholder', rateLimits: NO_LIMITS, ...options.config });
  const app = createApp({
    db,
    storage: new LocalStorage(storageDir),
    clock,
    mailer,
    identityProviders: options.providers ?? [],
    rateLimiter: new MemoryRateLimiter(clock),
    config,
    log: (m) => logs.push(m),
  });
  server = createServer(app.callback());
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The API's public URL is only known once listening (links in mails and the OIDC redirect).
  if (!options.config?.apiUrl) config.apiUrl = url;

  return {
    app,
    url,
    clock,
    db,
    logs,
    async request(method, path, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      let body: string | FormData | undefined;
      if (opts.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(opts.json);
      } else if (opts.form) body = opts.form;
      else if (opts.body !== undefined) body = opts.body;
      if (opts.key) headers['x-api-key'] = opts.key;
      const res = await fetch(url + path, { method, headers, body, redirect: 'manual' });
      const text = await res.text();
      let parsed: unknown = undefined;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: res.status, headers: res.headers, text, body: parsed };
    },
    async close() {
      server!.closeAllConnections();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
      if (mailer instanceof SmtpMailer) mailer.close();
      rmSync(storageDir, { recursive: true, force: true });
    },
  };
}

let counter = 0;
/** A fresh identity for each call, so tests sharing a database never collide. */
export function newPerson(prefix = 'trader') {
  counter += 1;
  const tag = `${prefix}${process.pid}x${counter}`;
  return { first_name: 'Camille', last_name: `Durand ${counter}`, email: `${tag}@example.com`, username: tag, password: `motdepasse-${counter}` };
}

export async function register(t: TestApp, person = newPerson()) {
  const res = await t.request('POST', '/api/register', { json: person });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  const me = await t.request('GET', '/api/me', { key: res.body.token });
  return { ...person, key: res.body.token as string, id: me.body.id as number, response: res.body };
}
