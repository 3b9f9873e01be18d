import { systemClock, type Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import type { Storage } from '../storage/types.js';
import { LIBRARY_LEASE, MaintenanceLeases } from './lease.js';
import { seedLibrary } from './seed.js';
import { DatasetStore } from './store.js';

/**
 * At start: an interrupted import is recovered; an empty index is rebuilt from the library's files (a new database over an existing
 * data directory); a library still empty is seeded from the fixtures (the first start). Under the
 * library's lease (datasets/lease.ts): a server starting while another imports must not clear
 * that import's staging files nor re-index under it; that one finishes, and the next import
 * recovers whatever is left.
 */
export async function bootstrapLibrary(
  db: Database,
  library: Storage,
  seedDir: string | null,
  log: (message: string) => void,
  clock: Clock = systemClock,
  /** A stop asked during the start (src/app/start-stop.ts): a seed stops between two series, 'running', and the next start seeds again. */
  signal?: AbortSignal,
): Promise<void> {
  const leases = new MaintenanceLeases(db, clock, log);
  await leases.freeOrphan(LIBRARY_LEASE);
  const lease = await leases.tryAcquire(LIBRARY_LEASE);
  if (!lease) {
    log('bt: another server is maintaining the library: its recovery at start is left to it');
    return;
  }
  try {
    await prepare(db, new DatasetStore(db, library, log), seedDir, log, signal);
  } finally {
    await lease.release();
  }
}

/**
 * The seed's progress in `admin_settings`: 'running' from its first write, 'done' after its last.
 * A seed killed halfway leaves month files (some without their index row) and 'running': the next
 * start seeds again, every month rewritten the same, instead of taking the partial library for a
 * finished one. A library seeded before this marker existed has none: it counts as done.
 */
export const SEED_MARKER = 'library_seed';

async function seedState(db: Database): Promise<string | null> {
  return (await db.models.AdminSetting.findByPk(SEED_MARKER))?.value ?? null;
}

async function setSeedState(db: Database, value: 'running' | 'done'): Promise<void> {
  await db.transaction((t) => db.models.AdminSetting.upsert({ name: SEED_MARKER, value }, { transaction: t }));
}

async function prepare(db: Database, store: DatasetStore, seedDir: string | null, log: (message: string) => void, signal?: AbortSignal): Promise<void> {
  // An import killed halfway: its staging files go, and the index is made to match the files.
  await store.recover();
  const interrupted = (await seedState(db)) === 'running';
  if (interrupted && !seedDir) {
    log('bt: the library seed was interrupted and SEED_DIR is off: the library stays partial until a start with SEED_DIR finishes it');
    return;
  }
  if (!interrupted) {
    if ((await store.count()) > 0) return;
    const indexed = await store.reindex();
    if (indexed.datasets > 0) {
      log(`bt: dataset index rebuilt from the library: ${indexed.datasets} month files`);
      return;
    }
    if (!seedDir) return;
  }
  if (interrupted) log(`bt: the library seed was interrupted: seeding again from ${seedDir}`);
  const started = performance.now();
  await setSeedState(db, 'running');
  const written = await seedLibrary(store, seedDir!, log, undefined, signal);
  await setSeedState(db, 'done');
  log(`bt: library seeded from ${seedDir}: ${written} month files in ${Math.round(performance.now() - started)} ms`);
}
