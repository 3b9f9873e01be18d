import { createWriteStream } from 'node:fs';
// One system under load: a fresh database (SQLite file, or a MariaDB database created for the
// run and dropped after), a data directory holding the seeded library, the real server started
// from source through bench/load/process.ts, and, in queue mode, worker processes on Redis.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { createConnection } from 'mysql2/promise';
import { copySeededLibrary, type LibrarySet } from '../../test/support/library.js';
import type { ProcessStats } from './process.js';
import { OFFICIAL_RUN } from './workloads.js';

const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));
const ADMIN_EMAIL = 'admin@bt.local';
const ADMIN_PASSWORD = 'load-admin-password-1';
const USER_PASSWORD = 'load-user-password-1';

export type Dialect = 'sqlite' | 'mariadb';
export type Mode = 'inprocess' | 'queue';

export interface TargetOptions {
  dialect: Dialect;
  mode: Mode;
  library: LibrarySet;
  /** The MariaDB/MySQL server (a database is created on it per run). */
  mysqlUrl: string;
  /** Redis for queue mode (a DB number of its own on the shared server). */
  redisUrl: string;
  workers: number;
  users: number;
  /** scrypt cost (log2 N) of the users' passwords: login is one scrypt at this cost. */
  passwordCost: number;
  log: (line: string) => void;
}

export interface LoadUser {
  id: number;
  username: string;
  key: string;
}

export interface Target {
  url: string;
  users: LoadUser[];
  /** Credits added to every user (admin grants through the API, 1,000 at most per call). */
  topUp(perUser: number): Promise<void>;
  /** Starts a measurement window in the server, the workers and the idle control process. */
  resetStats(): Promise<void>;
  readStats(): Promise<ProcessStats[]>;
  close(): Promise<void>;
}

class Child {
  output = '';
  private readonly exited: Promise<void>;
  constructor(readonly role: Role, readonly proc: ChildProcess) {
    // BT_LOAD_CHILD_LOG=/tmp/x: each child's whole output also goes to /tmp/x.<role>.<pid>.log
    // (with BT_LOAD_NODE_ARGS='--trace-gc', every collection of the server and the workers).
    if (process.env.BT_LOAD_CHILD_LOG) {
      const log = createWriteStream(`${process.env.BT_LOAD_CHILD_LOG}.${role}.${proc.pid}.log`);
      proc.stdout!.pipe(log, { end: false });
      proc.stderr!.pipe(log, { end: false });
      proc.once('exit', () => log.end());
    }
    proc.stdout!.on('data', (chunk) => (this.output = (this.output + chunk).slice(-20_000)));
    proc.stderr!.on('data', (chunk) => (this.output = (this.output + chunk).slice(-20_000)));
    this.exited = new Promise((resolve) => proc.once('exit', () => resolve()));
  }

  get alive(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }

  /** One IPC exchange: `type` sent, the first message of type `answer` returned. */
  ask<T>(type: string, answer: string): Promise<T> {
    return new Promise((resolve, reject) => {
      if (!this.alive) return reject(new Error(`${this.role} ${this.proc.pid} has exited:\n${this.output}`));
      const timer = setTimeout(() => {
        this.proc.off('message', onMessage);
        reject(new Error(`${this.role} ${this.proc.pid} did not answer '${type}' within 10 s`));
      }, 10_000);
      const onMessage = (message: { type?: string }) => {
        if (message?.type !== answer) return;
        clearTimeout(timer);
        this.proc.off('message', onMessage);
        resolve(message as T);
      };
      this.proc.on('message', onMessage);
      this.proc.send({ type });
    });
  }

  async stop(): Promise<void> {
    if (this.alive) {
      this.proc.kill('SIGTERM');
      const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 15_000).unref());
      if ((await Promise.race([this.exited, timeout])) === 'timeout') this.proc.kill('SIGKILL');
    }
    await this.exited;
  }
}

type Role = 'server' | 'worker' | 'idle';

function spawnChild(role: Role, env: NodeJS.ProcessEnv): Child {
  // Node refuses --cpu-prof in NODE_OPTIONS: BT_LOAD_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/p' goes on the command line.
  const extra = role === 'idle' ? [] : (process.env.BT_LOAD_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const proc = spawn(process.execPath, [...extra, '--import', 'tsx', '--conditions=@bt/source', 'bench/load/process.ts', role], {
    cwd: SERVER_DIR,
    env,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  return new Child(role, proc);
}

async function waitFor(child: Child, pattern: RegExp, seconds: number): Promise<RegExpExecArray> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const match = pattern.exec(child.output);
    if (match) return match;
    if (!child.alive) {
      // First line: the process's last words (what a skipped mode's report says); then the whole output.
      const lines = child.output.trim().split('\n').filter((l) => l.trim() && !/^\s+at /.test(l));
      const last = (lines.filter((l) => /^(bt|bt-worker|bt-load): /.test(l)).pop() ?? lines.pop() ?? '').trim().slice(0, 240);
      throw new Error(`the ${child.role} exited (${child.proc.exitCode ?? child.proc.signalCode}): ${last}\n${child.output}`);
    }
    if (Date.now() > deadline) throw new Error(`the ${child.role} did not start within ${seconds} s:\n${child.output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function createDatabase(options: TargetOptions, dataDir: string): Promise<{ url: string; drop(): Promise<void> }> {
  if (options.dialect === 'sqlite') return { url: `sqlite:${join(dataDir, 'bt.sqlite')}`, drop: async () => {} };
  const name = `bt_load_${process.pid}_${Date.now().toString(36)}`;
  const admin = await createConnection(options.mysqlUrl);
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  return {
    url: `${options.mysqlUrl.replace(/\/+$/, '')}/${name}`,
    drop: async () => {
      const conn = await createConnection(options.mysqlUrl);
      await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.end();
    },
  };
}

async function dropKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

async function api(url: string, method: string, path: string, options: { key?: string; json?: unknown } = {}): Promise<any> {
  const res = await fetch(url + path, {
    method,
    headers: { ...(options.json !== undefined ? { 'content-type': 'application/json' } : {}), ...(options.key ? { 'x-api-key': options.key } : {}) },
    body: options.json !== undefined ? JSON.stringify(options.json) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

/** `count` calls of `work`, `parallel` at a time. */
async function inBatches(count: number, parallel: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(parallel, count) }, async () => {
    while (next < count) await work(next++);
  }));
}

const open = new Set<() => Promise<void>>();

/** Ctrl-C on the harness: every system still up is stopped and its database dropped. */
export async function closeAllTargets(): Promise<void> {
  await Promise.allSettled([...open].map((close) => close()));
}

export async function startTarget(options: TargetOptions): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bt-load-data-'));
  const tmpDir = mkdtempSync(join(tmpdir(), 'bt-load-tmp-'));
  const children: Child[] = [];
  let database: { url: string; drop(): Promise<void> } | null = null;
  // Queue mode shares the machine's Redis: every key of this run under a prefix of its own, deleted after.
  const queuePrefix = `bt-load-${process.pid}-${Date.now().toString(36)}`;
  const cleanUp = async () => {
    open.delete(cleanUp);
    await Promise.allSettled(children.map((c) => c.stop()));
    if (options.mode === 'queue') await dropKeys(options.redisUrl, queuePrefix).catch((err) => options.log(`  redis clean-up: ${(err as Error).message}`));
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(tmpDir, { recursive: true, force: true });
  };
  open.add(cleanUp);
  try {
    database = await createDatabase(options, dataDir);
    // The library the server would seed from fixtures/ on its first start (seedLibrary over the
    // same sources), built once into the temporary directory and copied: the server indexes it.
    await copySeededLibrary(join(dataDir, 'library'), options.library);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      TMPDIR: tmpDir,
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      SEED_DIR: 'off',
      WEB_DIST: 'off',
      SMTP_URL: '',
      VERIFY_ON_SCREEN: 'no-credits',
      PASSWORD_HASH_COST: String(options.passwordCost),
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      // Many clients on a few accounts from one address: the limits would answer 429 by design.
      RATE_LIMIT_LOGIN: 'off',
      RATE_LIMIT_REGISTER: 'off',
      RATE_LIMIT_RESET: 'off',
      RATE_LIMIT_VERIFY: 'off',
      RATE_LIMIT_SUPPORT: 'off',
      RATE_LIMIT_API: 'off',
      // The clients' connections all come from 127.0.0.1 too, up to 1,000 of them (--clients).
      MAX_CONNECTIONS_PER_IP: '0',
      // Flags for the server and workers: BT_LOAD_NODE_OPTIONS='--trace-gc' (--cpu-prof: BT_LOAD_NODE_ARGS, spawnChild).
      ...(process.env.BT_LOAD_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BT_LOAD_NODE_OPTIONS } : {}),
      ...(options.mode === 'queue' ? { REDIS_URL: options.redisUrl, QUEUE_PREFIX: queuePrefix } : {}),
    };
    const server = spawnChild('server', env);
    children.push(server);
    const url = (await waitFor(server, /listening on (http:\/\/127\.0\.0\.1:\d+)/, 120))[1];
    if (options.mode === 'queue') {
      for (let i = 0; i < options.workers; i++) children.push(spawnChild('worker', env));
      // A worker says it is ready on its output; it must be up before the load starts.
      await Promise.all(children.filter((c) => c.role === 'worker').map((w) => waitFor(w, /ready|listening|waiting|started/i, 120)));
    }
    // The scheduler's share of the loop delays: an idle process measured over the same windows.
    const idle = spawnChild('idle', { PATH: env.PATH, HOME: env.HOME, TMPDIR: tmpDir });
    children.push(idle);
    await idle.ask('reset', 'reset-done');
    options.log(`  server ${url} (pid ${server.proc.pid}), ${options.dialect}, ${options.mode}${options.mode === 'queue' ? ` with ${options.workers} workers` : ''}`);

    const admin = await api(url, 'POST', '/api/login', { json: { identifier: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
    const users: LoadUser[] = [];
    await inBatches(options.users, 4, async (i) => {
      const username = `load${String(i).padStart(3, '0')}`;
      const registered = await api(url, 'POST', '/api/register', {
        json: { first_name: 'Charge', last_name: `Test ${i}`, email: `${username}@load.bt.local`, username, password: USER_PASSWORD },
      });
      const me = await api(url, 'GET', '/api/me', { key: registered.token });
      users.push({ id: me.id, username, key: registered.token });
    });
    users.sort((a, b) => a.id - b.id);

    const target: Target = {
      url,
      users,
      async topUp(perUser: number) {
        const calls = users.flatMap((u) => {
          const out: { id: number; amount: number }[] = [];
          for (let left = perUser; left > 0; left -= 1000) out.push({ id: u.id, amount: Math.min(1000, left) });
          return out;
        });
        await inBatches(calls.length, 4, async (i) => {
          await api(url, 'POST', '/api/admin/add_credit', { key: admin.token, json: { user_id: calls[i].id, amount: calls[i].amount } });
        });
      },
      async resetStats() {
        await Promise.all(children.map((c) => c.ask('reset', 'reset-done')));
      },
      async readStats() {
        return Promise.all(children.map((c) => c.ask<ProcessStats>('read', 'stats')));
      },
      close: cleanUp,
    };
    // The first backtests of a fresh process load the engine into its threads (and each worker's):
    // seconds, not what a scenario measures. Two rounds of as many runs at once as there are engine hosts, times two threads.
    await target.topUp(20);
    const hosts = options.mode === 'queue' ? options.workers : 1;
    for (let round = 0; round < 2; round++) {
      await Promise.all(Array.from({ length: hosts * 2 }, (_, i) => api(url, 'POST', '/api/run_backtest', { key: users[i % users.length].key, json: OFFICIAL_RUN })));
    }
    return target;
  } catch (err) {
    await cleanUp();
    throw err;
  }
}

export const LOAD_USER_PASSWORD = USER_PASSWORD;
