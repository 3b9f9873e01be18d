import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { Sequelize, Transaction, UniqueConstraintError } from 'sequelize';
import { withoutCredentials } from '../logging/credentials.js';
import { initModels, type Models } from './models.js';
import { formatSqliteStacksOnFailure } from './sqlite-query.js';
import { ScriptRunner, type ScriptHandle } from './sqlite-scripts.js';

export type Dialect = 'sqlite' | 'mysql';

export interface Database {
  readonly sequelize: Sequelize;
  readonly dialect: Dialect;
  readonly models: Models;
  /** Where the SQLite file is, or the MySQL URL without its password (for logs). */
  readonly location: string;
  /**
   * Runs `fn` in a transaction that every write of the app goes through. On SQLite, write
   * transactions are serialized in this process and start IMMEDIATE (see below); on MySQL, a
   * transaction that hits a deadlock is retried.
   */
  transaction<T>(fn: (t: Transaction) => Promise<T>): Promise<T>;
  /**
   * The statements of a transaction on its connection, without Sequelize's per-query machinery
   * (query building, logging, a stack trace per statement): the hot path of every backtest.
   * Values go into the SQL through `literal`.
   */
  raw(t: Transaction): RawSession;
  /**
   * SQLite only: `statements` as one write transaction (BEGIN IMMEDIATE ... COMMIT, rolled back
   * when one fails), sent to SQLite in a single call with the other scripts waiting
   * (sqlite-scripts.ts), so the write lock is held for no event-loop turn. `after` then gets the
   * row count of the last statement (`changes()`) and the scripts' connection for a read.
   */
  script<T>(statements: string[], after: (session: RawSession, changes: number) => Promise<T>): Promise<T>;
  /**
   * MySQL only: one statement on a pooled connection outside any transaction (autocommit), its
   * rows answered (a CALL's: those of the procedure's SELECT), retried on a deadlock like a
   * transaction. For a stored procedure that is its own transaction: one round trip.
   */
  autocommit<R = Record<string, unknown>>(sql: string): Promise<R[]>;
  /**
   * How many times this process ran a transaction again because of another's lock: on MySQL a
   * transaction or an autocommit statement after a deadlock or a lock wait timeout (docs/server.md,
   * "Sign-ups at once on MariaDB"); on SQLite a transaction or a script still SQLITE_BUSY after the
   * busy timeout (another process held the file). Exported as bt_db_lock_retries_total.
   */
  readonly lockRetries: { readonly count: number };
  /** A value as an SQL literal of this dialect (strings quoted, dates in Sequelize's stored format). */
  literal(value: string | number | boolean | Date | null): string;
  close(): Promise<void>;
}

/** Raw statements on one connection: rows of a read, or what a write changed. */
export interface RawSession {
  all<R = Record<string, unknown>>(sql: string): Promise<R[]>;
  run(sql: string): Promise<{ changes: number; insertId: number }>;
}

export interface DatabaseOptions {
  /** Data directory for the default SQLite file. */
  dataDir: string;
  poolMax?: number;
  busyTimeoutMs?: number;
  log?: (sql: string) => void;
}

/** `mysql://` / `mariadb://` (production) or `sqlite:` + optional file path (embedded default). */
export function parseDatabaseUrl(url: string | undefined, dataDir: string): { dialect: Dialect; url: string; storage?: string } {
  const value = (url ?? '').trim();
  if (value === '' || value === 'sqlite:' || value === 'sqlite://') {
    return { dialect: 'sqlite', url: 'sqlite:', storage: join(resolve(dataDir), 'bt.sqlite') };
  }
  if (value.startsWith('sqlite:')) {
    let path = value.slice('sqlite:'.length);
    if (path.startsWith('//')) path = path.slice(2);
    if (path === ':memory:') throw new Error(`invalid DATABASE_URL: ${withoutCredentials(value)} (an in-memory SQLite database cannot hold concurrent transactions; give a file)`);
    return { dialect: 'sqlite', url: value, storage: isAbsolute(path) ? path : resolve(path) };
  }
  if (value.startsWith('mysql://') || value.startsWith('mariadb://')) {
    const mysql = value.replace(/^mariadb:/, 'mysql:');
    let parsed: URL | null = null;
    try {
      parsed = new URL(mysql);
    } catch {
      parsed = null;
    }
    // Checked here, not left to the driver: a password with an unescaped '#', '/' or '@' made it
    // look up a host named after a piece of the password (and Node printed the URL whole in a
    // deprecation warning).
    if (!parsed || !parsed.hostname) {
      throw new Error(`invalid DATABASE_URL: ${withoutCredentials(value)} (expected mysql://user:password@host:port/database; percent-encode the user's and password's special characters, '@' as %40, ':' %3A, '/' %2F, '#' %23, '?' %3F, '%' %25)`);
    }
    if (!/^\/[^/]+$/.test(parsed.pathname)) throw new Error(`invalid DATABASE_URL: ${withoutCredentials(value)} (expected mysql://user:password@host:port/database: the database's name is missing)`);
    return { dialect: 'mysql', url: mysql };
  }
  throw new Error(`invalid DATABASE_URL: ${withoutCredentials(value)} (expected mysql://user:password@host:port/database or sqlite:path/to/file.sqlite)`);
}

export async function openDatabase(url: string | undefined, options: DatabaseOptions): Promise<Database> {
  const target = parseDatabaseUrl(url, options.dataDir);
  const logging = options.log ?? false;
  if (target.dialect === 'mysql') {
    const sequelize = new Sequelize(target.url, {
      dialect: 'mysql',
      logging,
      timezone: '+00:00',
      pool: { max: options.poolMax ?? 10, min: 0, acquire: 60_000, idle: 10_000 },
      dialectOptions: { charset: 'utf8mb4', dateStrings: false },
      define: { charset: 'utf8mb4', collate: 'utf8mb4_unicode_ci' },
    });
    try {
      await sequelize.authenticate();
    } catch (err) {
      await sequelize.close().catch(() => {});
      throw new Error(`cannot connect to the database at DATABASE_URL ${redact(target.url)}: ${(err as Error).message}`, { cause: err });
    }
    const lockRetries = { count: 0 };
    const db = makeDatabase(sequelize, 'mysql', redact(target.url), lockRetries, (fn) => withRetry(() => sequelize.transaction(fn), isMysqlDeadlock, lockRetries), () => {
      throw new Error('script() is for SQLite only');
    });
    const manager = sequelize.connectionManager as unknown as { getConnection(o: object): Promise<MysqlHandle>; releaseConnection(c: MysqlHandle): Promise<void> };
    db.autocommit = <R>(sql: string) =>
      withRetry(async () => {
        const connection = await manager.getConnection({ type: 'write' });
        try {
          const result = await mysqlSession(connection).all<unknown>(sql);
          // A CALL answers its SELECT's rows, then a status header; a plain statement its rows.
          return (Array.isArray(result[0]) ? result[0] : result) as R[];
        } finally {
          await manager.releaseConnection(connection);
        }
      }, isMysqlDeadlock, lockRetries);
    return db;
  }

  const storage = target.storage!;
  mkdirSync(dirname(storage), { recursive: true });
  const sequelize = new Sequelize({
    dialect: 'sqlite',
    storage,
    logging,
    // BEGIN IMMEDIATE takes the write lock up front: a DEFERRED transaction that reads and then
    // writes can fail with SQLITE_BUSY without waiting, when another one got the lock between.
    transactionType: Transaction.TYPES.IMMEDIATE,
  });
  nulSafeSqliteLiterals(sequelize);
  formatSqliteStacksOnFailure(sequelize);
  const connections = configureSqliteConnections(sequelize, options.busyTimeoutMs ?? 10_000);
  await sequelize.query('PRAGMA journal_mode=WAL');
  const lock = new Mutex();
  const lockRetries = { count: 0 };
  const scripts = new ScriptRunner(
    () => connections.acquire('bt-scripts') as unknown as Promise<ScriptHandle>,
    (fn) => lock.run(fn),
    isSqliteBusy,
    lockRetries,
  );
  return makeDatabase(
    sequelize,
    'sqlite',
    storage,
    lockRetries,
    (fn) =>
      // One write transaction at a time in this process. Sequelize opens one SQLite connection per
      // transaction; if many waited on SQLite's busy handler they would hold every libuv thread
      // while the holder of the lock waits for one to COMMIT. Queueing them here avoids that, and
      // the busy timeout still covers another process (a migration, the CLI) holding the file.
      lock.run(() => withRetry(() => sequelize.transaction(fn), isSqliteBusy, lockRetries)),
    async (statements, after) => {
      const changes = await scripts.run(statements);
      return after(sqliteSession((await scripts.handle()) as unknown as SqliteHandle), changes);
    },
  );
}

type SqliteHandle = {
  exec(sql: string, callback: (err: Error | null) => void): void;
  all(sql: string, callback: (err: Error | null, rows: unknown[]) => void): unknown;
  run(sql: string, callback: (this: { changes: number; lastID: number }, err: Error | null) => void): unknown;
};

function sqliteSession(connection: SqliteHandle): RawSession {
  return {
    all: <R>(sql: string) => new Promise<R[]>((resolve, reject) => connection.all(sql, (err, rows) => (err ? reject(err) : resolve(rows as R[])))),
    run: (sql: string) =>
      new Promise((resolve, reject) =>
        connection.run(sql, function (err) {
          if (err) reject(err);
          else resolve({ changes: this.changes, insertId: this.lastID });
        }),
      ),
  };
}

type MysqlHandle = {
  query(sql: string, callback: (err: Error | null, result: unknown) => void): unknown;
};

function mysqlSession(connection: MysqlHandle): RawSession {
  const query = (sql: string) => new Promise<unknown>((resolve, reject) => connection.query(sql, (err, result) => (err ? reject(err) : resolve(result))));
  return {
    all: async <R>(sql: string) => (await query(sql)) as R[],
    run: async (sql: string) => {
      const header = (await query(sql)) as { affectedRows: number; insertId: number };
      return { changes: header.affectedRows, insertId: header.insertId };
    },
  };
}

function makeDatabase(
  sequelize: Sequelize,
  dialect: Dialect,
  location: string,
  lockRetries: { readonly count: number },
  transaction: <T>(fn: (t: Transaction) => Promise<T>) => Promise<T>,
  script: <T>(statements: string[], after: (session: RawSession, changes: number) => Promise<T>) => Promise<T>,
): Database {
  return {
    sequelize,
    dialect,
    location,
    lockRetries,
    models: initModels(sequelize),
    transaction,
    raw: (t) => {
      const connection = (t as unknown as { connection?: unknown }).connection;
      if (!connection) throw new Error('raw(): the transaction has no connection');
      return dialect === 'sqlite' ? sqliteSession(connection as SqliteHandle) : mysqlSession(connection as MysqlHandle);
    },
    script,
    autocommit: () => {
      throw new Error('autocommit() is for MySQL only');
    },
    literal: (value) => sqlLiteral(sequelize, value),
    close: () => sequelize.close(),
  };
}

type LiteralWriter = { escape: (value: unknown, field?: unknown, options?: unknown) => string };
const literalWriter = (sequelize: Sequelize) => sequelize.getQueryInterface().queryGenerator as LiteralWriter;

/**
 * Sequelize's escaping (the dialect's quoting rules, dates as Sequelize stores them), through the
 * query generator, so a NUL is spelled char(0) on SQLite as in Sequelize's own queries
 * (nulSafeSqliteLiterals): a script goes to sqlite3_exec as a C string too.
 */
function sqlLiteral(sequelize: Sequelize, value: string | number | boolean | Date | null): string {
  // Neither dialect has a literal for NaN or an infinity: stored as NULL (no figure).
  if (typeof value === 'number' && !Number.isFinite(value)) return 'NULL';
  return literalWriter(sequelize).escape(value);
}

/**
 * Every literal Sequelize writes into an SQLite query (a `where` value, a `LIKE` pattern, a raw
 * script's values through sqlLiteral) with each NUL spelled char(0): node-sqlite3 hands the SQL
 * to SQLite as a C string, so a raw NUL inside a quoted value ended the query there, an
 * unterminated string and a 500. Values are checked at the API's door too (app/input.ts); this is
 * the layer under it, for whatever reaches a query another way. A NUL only ever sits inside a
 * quoted literal of Sequelize's output, and `||` binds tighter than any comparison, so each piece
 * stays one value.
 */
function nulSafeSqliteLiterals(sequelize: Sequelize): void {
  const generator = literalWriter(sequelize);
  const escape = generator.escape.bind(generator);
  generator.escape = (value, field, options) => {
    const sql = escape(value, field, options);
    return typeof sql === 'string' && sql.includes('\0') ? sql.replaceAll('\0', "' || char(0) || '") : sql;
  };
}

/** Same as Sequelize's UniqueConstraintError, for raw statements too (SQLite and MySQL codes). */
export function isUniqueViolation(err: unknown): boolean {
  if (err instanceof UniqueConstraintError) return true;
  const e = err as { code?: string; errno?: number; message?: string };
  if (e?.code === 'ER_DUP_ENTRY') return true;
  return e?.code === 'SQLITE_CONSTRAINT' && /UNIQUE constraint failed/.test(e.message ?? '');
}

/**
 * Sequelize's SQLite connection manager has no after-connect hook and opens a fresh connection
 * for every transaction (closing it after): wrap it so that
 * - every connection gets the busy timeout and `synchronous=NORMAL` (per connection in SQLite);
 * - a transaction's connection, once released, is kept for the next transaction (up to
 *   IDLE_CONNECTIONS), instead of re-opening the file and re-reading the schema each time.
 *
 * synchronous=NORMAL in WAL mode: a commit appends to the WAL without an fsync, which happens at
 * checkpoints. A committed transaction survives the process being killed (the WAL is in the OS's
 * page cache, and the next opening replays it); only a power loss or an OS crash can lose the
 * last commits, never corrupt the file (sqlite.org/pragma.html#pragma_synchronous). The
 * production database for several servers is MySQL anyway.
 */
const IDLE_CONNECTIONS = 2;

function configureSqliteConnections(sequelize: Sequelize, busyTimeoutMs: number): { acquire(name?: string): Promise<SqliteHandle> } {
  type SqliteConnection = {
    configure(option: 'busyTimeout', value: number): void;
    exec(sql: string, callback: (err: Error | null) => void): void;
    all(sql: string, ...rest: unknown[]): unknown;
    run(sql: string, ...rest: unknown[]): unknown;
    close(callback?: (err: Error | null) => void): void;
    uuid?: string;
    __btConfigured?: boolean;
  };
  type Manager = {
    connections: Record<string, SqliteConnection>;
    getConnection(options?: { uuid?: string }): Promise<SqliteConnection>;
    releaseConnection(connection: SqliteConnection, force?: boolean): void;
    _onProcessExit(): Promise<void>;
  };
  const manager = (sequelize as unknown as { connectionManager: Manager }).connectionManager;
  const getConnection = manager.getConnection.bind(manager);
  const releaseConnection = manager.releaseConnection.bind(manager);
  const onExit = manager._onProcessExit.bind(manager);
  const idle: SqliteConnection[] = [];
  const columnTypes = new Map<string, unknown[]>();
  manager.getConnection = async (opts?: { uuid?: string }) => {
    const uuid = opts?.uuid;
    if (uuid && uuid !== 'default' && !manager.connections[uuid] && idle.length > 0) {
      const reused = idle.pop()!;
      manager.connections[uuid] = reused;
      return reused;
    }
    const connection = await getConnection(opts);
    if (!connection.__btConfigured) {
      connection.__btConfigured = true;
      connection.configure('busyTimeout', busyTimeoutMs);
      cacheColumnTypes(connection, columnTypes);
      await new Promise<void>((resolve, reject) => connection.exec('PRAGMA synchronous=NORMAL', (err) => (err ? reject(err) : resolve())));
    }
    return connection;
  };
  manager.releaseConnection = (connection: SqliteConnection, force?: boolean) => {
    const uuid = connection.uuid;
    if (uuid && !force && idle.length < IDLE_CONNECTIONS && manager.connections[uuid] === connection) {
      delete manager.connections[uuid];
      connection.uuid = undefined;
      idle.push(connection);
      return;
    }
    releaseConnection(connection, force);
  };
  manager._onProcessExit = async () => {
    await Promise.all(idle.splice(0).map((c) => new Promise<void>((resolve) => c.close(() => resolve()))));
    return onExit();
  };
  // The scripts' own connection (Database.script), configured as the others.
  return {
    acquire: async (name?: string) => {
      const uuid = name ?? randomUUID();
      const connection = await manager.getConnection({ uuid });
      connection.uuid = uuid;
      return connection as unknown as SqliteHandle;
    },
  };
}

/**
 * Sequelize's SQLite dialect runs `PRAGMA table_info(\`t\`)` before every SELECT on table t (its
 * column types pick the value parsers), a second statement for each read: on a backtest, four of
 * them, one inside the charge transaction. The answer only changes with the schema, so it is
 * kept per database and forgotten whenever any connection sends a CREATE, ALTER or DROP.
 */
const TABLE_INFO = /^PRAGMA table_info\(`([^`]+)`\)$/;
const SCHEMA_CHANGE = /^\s*(?:CREATE|ALTER|DROP)\b/i;

function cacheColumnTypes(connection: { all(sql: string, ...rest: unknown[]): unknown; run(sql: string, ...rest: unknown[]): unknown }, cache: Map<string, unknown[]>): void {
  const all = connection.all.bind(connection);
  const run = connection.run.bind(connection);
  connection.all = (sql: string, ...rest: unknown[]) => {
    const callback = rest[rest.length - 1];
    const table = typeof sql === 'string' && typeof callback === 'function' ? TABLE_INFO.exec(sql)?.[1] : undefined;
    if (table === undefined) {
      if (typeof sql === 'string' && SCHEMA_CHANGE.test(sql)) cache.clear();
      return all(sql, ...rest);
    }
    const known = cache.get(table);
    if (known) {
      queueMicrotask(() => (callback as (err: Error | null, rows: unknown[]) => void)(null, known));
      return connection;
    }
    return all(sql, ...rest.slice(0, -1), (err: Error | null, rows: unknown[]) => {
      if (!err && rows.length > 0) cache.set(table, rows);
      (callback as (err: Error | null, rows: unknown[]) => void)(err, rows);
    });
  };
  connection.run = (sql: string, ...rest: unknown[]) => {
    if (typeof sql === 'string' && SCHEMA_CHANGE.test(sql)) cache.clear();
    return run(sql, ...rest);
  };
}

class Mutex {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn, fn);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

async function withRetry<T>(fn: () => Promise<T>, retryable: (err: unknown) => boolean, retries: { count: number }, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= attempts || !retryable(err)) throw err;
      retries.count++;
      await new Promise((r) => setTimeout(r, 5 * attempt + Math.random() * 20));
    }
  }
}

function errorCode(err: unknown): string | undefined {
  const e = err as { parent?: { code?: string }; original?: { code?: string }; code?: string };
  return e?.parent?.code ?? e?.original?.code ?? e?.code;
}

/**
 * Codes of a database that cannot serve now, not of a bad query: not there (stopped, restarting,
 * unreachable), or still locked after the retries (SQLITE_BUSY; a deadlock or lock wait timeout
 * on MySQL, after withRetry's four tries).
 */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'PROTOCOL_CONNECTION_LOST', 'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR', 'ER_SERVER_SHUTDOWN', 'ER_CON_COUNT_ERROR', 'SQLITE_BUSY', 'ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT']);

/**
 * The database cannot serve now (docs/architecture.md §3: 503 "busy", never a 500): a connection
 * error of Sequelize, a dropped or refused connection, a server shutting down, SQLite or a MySQL
 * row still locked after the busy timeout and the retries.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name.startsWith('SequelizeConnection') || err.name === 'SequelizeHostNotReachableError' || err.name === 'SequelizeHostNotFoundError') return true;
  if (err.name === 'SequelizeConnectionAcquireTimeoutError' || err.name === 'ConnectionAcquireTimeoutError') return true;
  const code = errorCode(err);
  return code !== undefined && UNAVAILABLE_CODES.has(code);
}

const isMysqlDeadlock = (err: unknown) => ['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT'].includes(errorCode(err) ?? '');
const isSqliteBusy = (err: unknown) => errorCode(err) === 'SQLITE_BUSY';

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'mysql://(unparsable)';
  }
}
