import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate, openDatabase } from '../../src/db/index.js';
import { FIXTURE_SOURCES, defaultFixturesDir, seedLibrary, type SeedSource } from '../../src/datasets/seed.js';
import { DatasetStore } from '../../src/datasets/store.js';
import { LocalStorage } from '../../src/storage/index.js';

/**
 * The seeded library (the real fixtures, converted and split by month) is built once per version
 * of its inputs into the system's temporary directory and copied into each test app, whose fresh
 * database then indexes it (reindex reads the Arrow copies: fast).
 *
 * Two sets: `basic` (EURUSD H1 and M15, the Euro Stoxx M5 month: about 80 month files, 1.3 s to
 * build, 0.2 s to index) is what most working-area tests need; `full` is every source `npm start`
 * seeds (32 instruments, about 820 month files, 6 s to build once, about 1 s to index), used by
 * the tests of the whole library only.
 */
export type LibrarySet = 'basic' | 'full';

const BASIC_FILES = new Set(['official/EURUSD_H1_2017-2018.csv', 'smc/EURUSD_15M.csv', 'backtrader/2006-min-005.txt']);

export function librarySources(set: LibrarySet): readonly SeedSource[] {
  return set === 'full' ? FIXTURE_SOURCES : FIXTURE_SOURCES.filter((s) => BASIC_FILES.has(s.file));
}

function inputsHash(set: LibrarySet): string {
  const hash = createHash('sha256');
  const fixtures = defaultFixturesDir();
  for (const source of librarySources(set)) {
    const path = join(fixtures, source.file);
    hash.update(`${source.file}:${source.symbol}:${source.timeframe}:${existsSync(path) ? statSync(path).size : 0}:${source.utcOffset ?? ''}`);
  }
  for (const file of ['seed.ts', 'series.ts', 'store.ts', 'month-files.ts', 'paths.ts']) hash.update(readFileSync(new URL(`../../src/datasets/${file}`, import.meta.url)));
  // Core's writers and readers decide the files' bytes too.
  for (const file of ['candles/csv-write.ts', 'candles/ipc.ts', 'candles/csv-read.ts', 'indicators/rsi.ts']) hash.update(readFileSync(new URL(`../../../core/src/${file}`, import.meta.url)));
  return hash.digest('hex').slice(0, 16);
}

const cached = new Map<LibrarySet, string>();

export async function seededLibraryDir(set: LibrarySet = 'basic'): Promise<string> {
  const known = cached.get(set);
  if (known) return known;
  const dir = join(tmpdir(), `bt-test-library-${set}-${inputsHash(set)}`);
  if (!existsSync(dir)) {
    const work = mkdtempSync(join(tmpdir(), 'bt-test-library-build-'));
    const db = await openDatabase(`sqlite:${join(work, 'seed.sqlite')}`, { dataDir: work });
    await migrate(db.sequelize);
    await seedLibrary(new DatasetStore(db, new LocalStorage(join(work, 'library'))), defaultFixturesDir(), () => {}, librarySources(set));
    await db.close();
    try {
      renameSync(join(work, 'library'), dir);
    } catch (err) {
      // Another test process built it first: use theirs.
      if (!existsSync(dir)) throw err;
    }
    rmSync(work, { recursive: true, force: true });
  }
  cached.set(set, dir);
  return dir;
}

export async function copySeededLibrary(dest: string, set: LibrarySet = 'basic'): Promise<void> {
  cpSync(await seededLibraryDir(set), dest, { recursive: true, preserveTimestamps: true });
}
