import type { Database } from '../db/database.js';
import type { Storage } from '../storage/types.js';
import { seedLibrary } from './seed.js';
import { DatasetStore } from './store.js';

/**
 * At start: an interrupted import is recovered; an empty index is rebuilt from the library's files (a new database over an existing
 * data directory); a library still empty is seeded from the fixtures (the first start).
 */
export async function bootstrapLibrary(db: Database, library: Storage, seedDir: string | null, log: (message: string) => void): Promise<void> {
  const store = new DatasetStore(db, library, log);
  // An import killed halfway: its staging files go, and the index is made to match the files.
  await store.recover();
  if ((await store.count()) > 0) return;
  const indexed = await store.reindex();
  if (indexed.datasets > 0) {
    log(`bt: dataset index rebuilt from the library: ${indexed.datasets} month files`);
    return;
  }
  if (!seedDir) return;
  const started = performance.now();
  const written = await seedLibrary(store, seedDir, log);
  log(`bt: library seeded from ${seedDir}: ${written} month files in ${Math.round(performance.now() - started)} ms`);
}
