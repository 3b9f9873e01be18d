/**
 * SQLite write scripts (Database.script): each is a transaction of raw statements. They go to
 * SQLite through one connection of their own, several at a time: the scripts waiting while one
 * call runs are sent together in the next call (each still its own BEGIN IMMEDIATE ... COMMIT), so
 * the write lock changes hands inside SQLite's thread, not once per transaction through a busy
 * event loop (docs/queue.md, SQLite).
 *
 * Each transaction ends by logging its number and `changes()` (the row count of its last
 * statement) in a TEMP table of the connection, inside the transaction: after the call, the log
 * says which transactions committed. The first one missing is the one that failed (its error is
 * the call's); those after it did not run and go in the next call.
 */

export type ScriptHandle = {
  exec(sql: string, callback: (err: Error | null) => void): void;
  all(sql: string, callback: (err: Error | null, rows: unknown[]) => void): unknown;
  serialize(): void;
};

interface Pending {
  sql: string;
  attempts: number;
  resolve: (changes: number) => void;
  reject: (err: unknown) => void;
}

/** Transactions sent in one call at most (an SQL text of a few dozen kB). */
const BATCH = 32;
const BUSY_ATTEMPTS = 4;
const LOG = 'temp.bt_script_log';

export class ScriptRunner {
  private readonly pending: Pending[] = [];
  private running = false;
  private connection: Promise<ScriptHandle> | null = null;

  constructor(
    /** A connection of its own, configured as the others (busy timeout, synchronous). */
    private readonly open: () => Promise<ScriptHandle>,
    /** The process's write lock, shared with Sequelize's transactions. */
    private readonly lock: <T>(fn: () => Promise<T>) => Promise<T>,
    private readonly isBusy: (err: unknown) => boolean,
    /** Counts each transaction sent again after SQLITE_BUSY (the database's lockRetries). */
    private readonly retries: { count: number } = { count: 0 },
  ) {}

  /** Runs the statements as one transaction; resolves with changes() of the last one. */
  run(statements: string[]): Promise<number> {
    return new Promise((resolve, reject) => {
      this.pending.push({ sql: statements.join(';\n'), attempts: 0, resolve, reject });
      this.kick();
    });
  }

  /** The scripts' connection, for reads after a script (queued behind the calls on it). */
  handle(): Promise<ScriptHandle> {
    this.connection ??= this.open().then(async (c) => {
      // Statements on this connection run one after another, in the order they were sent.
      c.serialize();
      await execOn(c, `PRAGMA temp_store=MEMORY; CREATE TEMP TABLE IF NOT EXISTS ${LOG} (seq INTEGER PRIMARY KEY, changes INTEGER NOT NULL)`);
      return c;
    });
    this.connection.catch(() => (this.connection = null));
    return this.connection;
  }

  private kick(): void {
    if (this.running || this.pending.length === 0) return;
    this.running = true;
    const batch = this.pending.splice(0, BATCH);
    this.lock(() => this.runBatch(batch))
      // Whatever went wrong unforeseen, no caller is left waiting (settling twice changes nothing).
      .catch((err) => batch.forEach((p) => p.reject(err)))
      .finally(() => {
        this.running = false;
        this.kick();
      });
  }

  private async runBatch(batch: Pending[]): Promise<void> {
    let connection: ScriptHandle;
    try {
      connection = await this.handle();
    } catch (err) {
      for (const p of batch) p.reject(err);
      return;
    }
    const sql = batch.map((p, i) => `BEGIN IMMEDIATE;\n${p.sql};\nINSERT INTO ${LOG} (seq, changes) VALUES (${i}, changes());\nCOMMIT;`).join('\n');
    let failure: unknown = null;
    try {
      await execOn(connection, sql);
    } catch (err) {
      failure = err;
      // sqlite3_exec stops at the failing statement: its transaction is still open (unless BEGIN
      // or COMMIT failed; then there is none, and ROLLBACK says so).
      await execOn(connection, 'ROLLBACK').catch(() => undefined);
    }
    let log: { seq: number; changes: number }[];
    try {
      log = (await allOn(connection, `SELECT seq, changes FROM ${LOG}`)) as { seq: number; changes: number }[];
      await execOn(connection, `DELETE FROM ${LOG}`);
    } catch (err) {
      // The connection is unusable: nothing can be said of these; a new one serves the next.
      this.connection = null;
      for (const p of batch) p.reject(failure ?? err);
      return;
    }
    const done = new Map(log.map((row) => [Number(row.seq), Number(row.changes)]));
    const retry: Pending[] = [];
    let failedAt = -1;
    batch.forEach((p, i) => {
      const changes = done.get(i);
      if (changes !== undefined) p.resolve(changes);
      else if (failedAt < 0) {
        failedAt = i;
        if (failure && this.isBusy(failure) && ++p.attempts < BUSY_ATTEMPTS) {
          this.retries.count++;
          retry.push(p);
        }
        else p.reject(failure ?? new Error('SQLite script: transaction neither committed nor failed'));
      } else retry.push(p);
    });
    if (retry.length) {
      // Another process held the file (SQLITE_BUSY after the busy timeout), or a transaction
      // before these failed: they go again, first.
      if (failure && this.isBusy(failure)) await new Promise((r) => setTimeout(r, 5 + Math.random() * 20));
      this.pending.unshift(...retry);
    }
  }
}

export function execOn(c: ScriptHandle, sql: string): Promise<void> {
  return new Promise((resolve, reject) => c.exec(sql, (err) => (err ? reject(err) : resolve())));
}

function allOn(c: ScriptHandle, sql: string): Promise<unknown[]> {
  return new Promise((resolve, reject) => c.all(sql, (err, rows) => (err ? reject(err) : resolve(rows))));
}
