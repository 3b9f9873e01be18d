/**
 * The library a server seeds from the repository's fixtures (32 instruments, about 6 s of a start
 * alone, three times that on a loaded CI machine), kept once per version of its inputs in the
 * system's temporary directory: the first server of a run seeds it and leaves a copy, the next
 * ones start from that copy, and their fresh database only indexes it (about 1.5 s). For the
 * servers the browser tests (web/e2e/bt-server.ts) and the CLI's admin tests start.
 *
 * The browser tests' servers also start from a kept database (`keptIndexFile`): a copy of the
 * first one's, taken as soon as it answered (migrated, its admin made, the library indexed), so
 * the others find the index made and do not read the 823 months again (docs/development.md,
 * "The browser tests' servers start from a kept index").
 */
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the seeded library of `repoDir`'s fixtures is kept for the server of `serverRoot` (a
 * repository, or the suites' compiled copy of it): named after the fixtures' names and sizes and
 * after the code that writes a month's files.
 */
export function libraryCacheDir(repoDir: string, serverRoot: string): string {
  const hash = createHash('sha256');
  const fixtures = join(repoDir, 'fixtures');
  for (const folder of ['market', 'official', 'smc', 'backtrader', 'freqtrade']) {
    const dir = join(fixtures, folder);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) hash.update(`${folder}/${name}:${statSync(join(dir, name)).size}\n`);
  }
  hashTree(hash, join(serverRoot, 'packages', 'server', 'src', 'datasets'));
  for (const file of ['candles/csv-write.ts', 'candles/ipc.ts', 'candles/csv-read.ts', 'indicators/rsi.ts']) {
    const path = join(serverRoot, 'packages', 'core', 'src', file);
    if (existsSync(path)) hash.update(readFileSync(path));
  }
  return join(tmpdir(), `bt-e2e-library-${hash.digest('hex').slice(0, 16)}`);
}

/** Copies the kept library into `dataDir`'s `library` folder; answers false when none is kept yet. */
export function copyKeptLibrary(cache: string, dataDir: string): boolean {
  if (!existsSync(cache)) return false;
  // Timestamps kept: an Arrow copy older than its CSV would be rewritten by the reindex.
  cpSync(cache, join(dataDir, 'library'), { recursive: true, preserveTimestamps: true });
  return true;
}

/** Keeps a copy of a freshly seeded library (another process may have kept one first). */
export function keepLibrary(library: string, cache: string): void {
  if (existsSync(cache) || !existsSync(library)) return;
  const work = mkdtempSync(`${cache}-build-`);
  try {
    cpSync(library, work, { recursive: true, preserveTimestamps: true });
    renameSync(work, cache);
  } catch {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Every file under `dir`, sorted, into `hash` (name and bytes). */
function hashTree(hash: ReturnType<typeof createHash>, dir: string, prefix = ''): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) hashTree(hash, path, `${prefix}${name}/`);
    else hash.update(`${prefix}${name}\n`).update(readFileSync(path));
  }
}

/**
 * Where the database of a first start over the kept library `cache` is kept: named after the
 * library's key, the server code that writes at a start (migrations and models, the admin's and
 * the library's bootstraps) and the admin account `admin` it was started with.
 */
export function keptIndexFile(cache: string, serverRoot: string, admin: string): string {
  const hash = createHash('sha256').update(`${admin}\n`);
  const src = join(serverRoot, 'packages', 'server', 'src');
  hashTree(hash, join(src, 'db'));
  for (const file of ['users/bootstrap', 'datasets/bootstrap']) {
    for (const ext of ['.ts', '.js']) if (existsSync(join(src, file + ext))) hash.update(readFileSync(join(src, file + ext)));
  }
  return `${cache}-index-${hash.digest('hex').slice(0, 16)}.sqlite`;
}

/** Copies the kept database to `dbFile` (a server's fresh SQLite file); answers false when none is kept yet. */
export function copyKeptIndex(kept: string, dbFile: string): boolean {
  if (!existsSync(kept)) return false;
  copyFileSync(kept, dbFile);
  return true;
}

/**
 * Keeps a copy of the database `dbFile` of a server that has just answered (another process may
 * have kept one first). SQLite's `VACUUM INTO` writes a consistent copy from a read transaction,
 * whatever the running server writes meanwhile; renamed into place once whole.
 */
export async function keepIndex(dbFile: string, kept: string): Promise<void> {
  if (existsSync(kept) || !existsSync(dbFile)) return;
  const work = `${kept}-${process.pid}-${randomBytes(4).toString('hex')}`;
  const { default: sqlite3 } = await import('sqlite3');
  const db = await new Promise<InstanceType<typeof sqlite3.Database>>((resolve, reject) => {
    const opened: InstanceType<typeof sqlite3.Database> = new sqlite3.Database(dbFile, sqlite3.OPEN_READONLY, (err) => (err ? reject(err) : resolve(opened)));
  });
  try {
    db.configure('busyTimeout', 10_000);
    await new Promise<void>((resolve, reject) => db.run('VACUUM INTO ?', [work], (err) => (err ? reject(err) : resolve())));
    renameSync(work, kept);
  } catch {
    rmSync(work, { force: true });
  } finally {
    await new Promise<void>((resolve) => db.close(() => resolve()));
  }
}
