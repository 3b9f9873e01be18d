import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate, openDatabase } from '../../src/db/index.js';
import { FIXTURE_SOURCES, defaultFixturesDir, seedLibrary } from '../../src/datasets/seed.js';
import { DatasetStore } from '../../src/datasets/store.js';
import { LocalStorage } from '../../src/storage/index.js';

/**
 * The seeded library (the real fixtures, converted and split by month, about 1.3 s to build) is
 * built once per version of its inputs into the system's temporary directory and copied into each
 * test app, whose fresh database then indexes it (reindex reads the Arrow copies: fast).
 */
function inputsHash(): string {
  const hash = createHash('sha256');
  const fixtures = defaultFixturesDir();
  for (const source of FIXTURE_SOURCES) {
    const path = join(fixtures, source.file);
    hash.update(`${source.file}:${existsSync(path) ? statSync(path).size : 0}:${source.utcOffset ?? ''}`);
  }
  for (const file of ['seed.ts', 'series.ts', 'store.ts', 'paths.ts']) hash.update(readFileSync(new URL(`../../src/datasets/${file}`, import.meta.url)));
  // Core's writers and readers decide the files' bytes too.
  for (const file of ['candles/csv-write.ts', 'candles/ipc.ts', 'candles/csv-read.ts', 'indicators/rsi.ts']) hash.update(readFileSync(new URL(`../../../core/src/${file}`, import.meta.url)));
  return hash.digest('hex').slice(0, 16);
}

let cached: string | null = null;

export async function seededLibraryDir(): Promise<string> {
  if (cached) return cached;
  const dir = join(tmpdir(), `bt-test-library-${inputsHash()}`);
  if (!existsSync(dir)) {
    const work = mkdtempSync(join(tmpdir(), 'bt-test-library-build-'));
    const db = await openDatabase(`sqlite:${join(work, 'seed.sqlite')}`, { dataDir: work });
    await migrate(db.sequelize);
    await seedLibrary(new DatasetStore(db, new LocalStorage(join(work, 'library'))), defaultFixturesDir());
    await db.close();
    try {
      renameSync(join(work, 'library'), dir);
    } catch (err) {
      // Another test process built it first: use theirs.
      if (!existsSync(dir)) throw err;
    }
    rmSync(work, { recursive: true, force: true });
  }
  cached = dir;
  return dir;
}

export async function copySeededLibrary(dest: string): Promise<void> {
  cpSync(await seededLibraryDir(), dest, { recursive: true, preserveTimestamps: true });
}
