import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate, openDatabase } from '../../src/db/index.js';

/**
 * The SQLite pass's migrated template, one per test process (docs/development.md, "A migrated
 * template for the SQLite pass"): the first database a process opens is migrated into a file of its
 * own with the real `migrate()`, and each database after it starts as a copy of that file. Most
 * test processes run several files (scripts/shared-process-group.mjs), each with a database of its
 * own; copying the file takes about a millisecond, where the migrations took 0.1 to 0.3 s of CPU.
 * test/db-template-sqlite.test.ts compares a copy with a database migrated from scratch.
 */

let template: Promise<string> | undefined;

/** The migrated template of this process: made on the first call, shared by the calls after it. */
export function sqliteTemplate(): Promise<string> {
  template ??= makeTemplate().catch((err: unknown) => {
    // A failed start is not kept: the next call tries again (and fails the same way if it must).
    template = undefined;
    throw err;
  });
  return template;
}

async function makeTemplate(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'bt-test-template-'));
  const file = join(dir, 'bt.sqlite');
  try {
    const db = await openDatabase(`sqlite:${file}`, { dataDir: tmpdir() });
    try {
      await migrate(db.sequelize);
      // Everything into the main file, so that it alone is the database (the copy takes no -wal file).
      await db.sequelize.query('PRAGMA wal_checkpoint(TRUNCATE)');
    } finally {
      await db.close();
    }
    const wal = `${file}-wal`;
    if (existsSync(wal) && statSync(wal).size > 0) throw new Error(`the SQLite test template ${file} kept a write-ahead log after it was closed: it cannot be copied as one file`);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  // Made once per process (a failed attempt leaves nothing): one listener.
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return file;
}

/** Writes a copy of the template at `storage` (a new database's file, not yet opened). */
export async function copySqliteTemplate(storage: string): Promise<void> {
  if (existsSync(storage)) throw new Error(`refusing to copy the SQLite test template over an existing database: ${storage}`);
  copyFileSync(await sqliteTemplate(), storage);
}
