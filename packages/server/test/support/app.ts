import { mkdtempSync, rmSync } from 'node:fs';
import { after, before } from 'node:test';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appConfig, type AppConfig, type RateLimits } from '../../src/app/config.js';
import { createApp, type App } from '../../src/app/createApp.js';
import { ManualClock } from '../../src/clock/index.js';
import type { Database } from '../../src/db/index.js';
import { DisabledMailer, SmtpMailer, type Mailer } from '../../src/mail/index.js';
import type { IdentityProvider } from '../../src/oidc/provider.js';
import { MemoryRateLimiter, type RateLimiter } from '../../src/ratelimit/limiter.js';
import { LocalStorage, type Storage } from '../../src/storage/index.js';
import type { LlmClient } from '../../src/gpt/llm.js';
import type { SandboxSetup } from '../../src/strategies/sandbox/isolation.js';
import { PythonSandbox, type SandboxLimits } from '../../src/strategies/sandbox/sandbox.js';
import { testSandboxSetup } from './sandbox.js';
import type { PaymentGateways } from '../../src/payments/gateways.js';
import type { AppDeps } from '../../src/app/deps.js';
import type { QueueOptions } from '../../src/jobs/queue.js';
import { copySeededLibrary, type LibrarySet } from './library.js';
import { openTestDatabase, type TestDatabase } from './db.js';

/** Short limits so the hostile files (endless loop, memory bomb) are stopped quickly. */
export const TEST_SANDBOX_LIMITS: Partial<SandboxLimits> = { cpuSeconds: 2, wallMs: 6000, memoryBytes: 512 * 1024 * 1024 };

/**
 * The apps of the tests hash passwords at scrypt N = 2^10 (about 2 ms of CPU, against 35 ms at 2^14
 * and 380 ms at the production 2^17): the server's suite hashes about a thousand passwords a pass
 * (docs/development.md, "Cheaper hashes, fewer repeats"). The code is the same at every cost;
 * test/security-sessions.test.ts checks the production cost and the upgrade of weaker hashes at
 * login, and servers started as processes (support/server-process.ts) use the lowest cost their
 * configuration accepts, 2^14.
 */
export const TEST_PASSWORD_COST = { logN: 10, r: 8, p: 1 };

export const NO_LIMITS: RateLimits = { login: null, loginAccount: null, register: null, reset: null, verify: null, support: null, api: null };

export interface TestApp {
  app: App;
  url: string;
  clock: ManualClock;
  db: Database;
  logs: string[];
  storageDir: string;
  libraryDir: string;
  /** A request sent as written: no URL normalisation (fetch would resolve `../` itself). */
  raw(method: string, path: string, options?: { key?: string; headers?: Record<string, string> }): Promise<TestResponse>;
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
  options: {
    mailer?: Mailer;
    smtpUrl?: string;
    providers?: IdentityProvider[];
    config?: Partial<AppConfig>;
    /** Copy the seeded fixture library and index it (the working-area tests): true is the basic set. */
    library?: boolean | LibrarySet;
    llm?: LlmClient | null;
    sandboxLimits?: Partial<SandboxLimits>;
    sandboxConcurrency?: number;
    /** Another sandbox setup than the tests' shared one (a private user id, or none at all). */
    sandboxSetup?: SandboxSetup;
    /** Payment gateways (pointed at the local provider servers of test/support). */
    payments?: PaymentGateways;
    /** Other storages than throwaway folders (an S3 bucket shared by two apps); the caller's to clean. */
    storages?: { storage: Storage; library: Storage };
    /** Another limiter than the in-memory one (Redis, shared by two apps). */
    rateLimiter?: (clock: ManualClock) => RateLimiter;
    /** More dependencies (a logger, metrics, Redis, a storage check), as main.ts passes them. */
    deps?: Partial<AppDeps>;
    /** Backtests through the Redis job queue (worker processes started by the test). */
    queue?: QueueOptions;
    /** A data directory laid out as main.ts does (files/, library/), to share with worker processes. */
    dataDir?: string;
  } = {},
): Promise<TestApp> {
  const clock = new ManualClock(Date.parse('2026-01-15T10:00:00Z'));
  const storageDir = options.dataDir ? join(options.dataDir, 'files') : mkdtempSync(join(tmpdir(), 'bt-storage-'));
  const libraryDir = options.dataDir ? join(options.dataDir, 'library') : mkdtempSync(join(tmpdir(), 'bt-library-'));
  if (options.library) await copySeededLibrary(libraryDir, options.library === true ? 'basic' : options.library);
  const logs: string[] = [];
  const mailer = options.mailer ?? (options.smtpUrl ? new SmtpMailer(options.smtpUrl, 'bt <no-reply@bt.test>') : new DisabledMailer());
  let server: Server | undefined;
  const config = appConfig({ publicUrl: 'http://web.bt.test', apiUrl: 'http://placeholder', rateLimits: NO_LIMITS, passwordCost: TEST_PASSWORD_COST, ...options.config });
  const app = createApp({
    db,
    storage: options.storages?.storage ?? new LocalStorage(storageDir),
    library: options.storages?.library ?? new LocalStorage(libraryDir),
    sandbox: new PythonSandbox(options.sandboxSetup ?? (await testSandboxSetup()), { limits: { ...TEST_SANDBOX_LIMITS, ...options.sandboxLimits }, concurrency: options.sandboxConcurrency }),
    llm: options.llm ?? null,
    clock,
    mailer,
    identityProviders: options.providers ?? [],
    rateLimiter: options.rateLimiter?.(clock) ?? new MemoryRateLimiter(clock),
    payments: options.payments,
    queue: options.queue,
    config,
    log: (m) => logs.push(m),
    ...options.deps,
  });
  if (options.library) await app.services.datasets.reindex();
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
    storageDir,
    libraryDir,
    raw(method, path, opts = {}) {
      return new Promise((resolve, reject) => {
        const target = new URL(url);
        const headers = { ...opts.headers, ...(opts.key ? { 'x-api-key': opts.key } : {}) };
        const req = httpRequest({ host: target.hostname, port: target.port, method, path, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body: unknown;
            try {
              body = text ? JSON.parse(text) : undefined;
            } catch {
              body = undefined;
            }
            resolve({ status: res.statusCode ?? 0, headers: new Headers(res.headers as Record<string, string>), text, body });
          });
        });
        req.on('error', reject);
        req.end();
      });
    },
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
      await app.services.uploads.close();
      await app.services.backtests.close();
      rmSync(storageDir, { recursive: true, force: true });
      rmSync(libraryDir, { recursive: true, force: true });
    },
  };
}

/**
 * The file's app: a fresh database and app started before the file's tests, closed and dropped
 * after them. The returned object stands for the running app (it forwards to it), so tests write
 * `t.request(...)` without each file repeating the same hooks.
 */
export function useTestApp(
  options: Parameters<typeof startTestApp>[1] | (() => Promise<Parameters<typeof startTestApp>[1]>) = {},
  hooks: { started?: (app: TestApp) => Promise<void> | void; stopped?: () => Promise<void> } = {},
): TestApp {
  let database: TestDatabase | undefined;
  let running: TestApp | undefined;
  // One hook each way: node 20 does not wait for one root-level hook before starting the next.
  before(async () => {
    // A function prepares what the options point at (local servers) before the app starts.
    const resolved = typeof options === 'function' ? await options() : options;
    database = await openTestDatabase();
    running = await startTestApp(database.db, resolved);
    await hooks.started?.(running);
  });
  after(async () => {
    await running?.close();
    await database?.drop();
    await hooks.stopped?.();
  });
  return new Proxy({} as TestApp, {
    get(_, name) {
      if (!running) throw new Error('the test app is only there inside the tests of the file that asked for it');
      const value = (running as unknown as Record<string | symbol, unknown>)[name];
      return typeof value === 'function' ? value.bind(running) : value;
    },
  });
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
