/**
 * The library a server seeds from the repository's fixtures (32 instruments, about 6 s of a start
 * alone, three times that on a loaded CI machine), kept once per version of its inputs in the
 * system's temporary directory: the first server of a run seeds it and leaves a copy, the next
 * ones start from that copy, and their fresh database only indexes it (about 1.5 s). For the
 * servers the browser tests (web/e2e/bt-server.ts) and the CLI's admin tests start.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
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
  const datasets = join(serverRoot, 'packages', 'server', 'src', 'datasets');
  if (existsSync(datasets)) for (const name of readdirSync(datasets).sort()) hash.update(readFileSync(join(datasets, name)));
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
