import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { entryArgs } from './entry.js';
import { copyKeptLibrary, keepLibrary, libraryCacheDir } from './library-cache.js';

const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  url: string;
  pid: number;
  dataDir: string;
  /** The private TMPDIR the process was given (tests check that nothing is left in it). */
  tmpDir: string;
  output(): string;
  /** Peak resident memory of the process so far (VmHWM), in bytes. */
  peakRss(): number;
  /** How the process ended, once it has (exit code, or the signal that ended it). */
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Kills the process at once (SIGKILL, no clean-up on its side) and waits for it to be gone. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * What every server process of the tests starts with: on SQLite in `dataDir`, on a free port, no
 * library seeding, no web app.
 */
export function serverProcessEnv(dataDir: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    SEED_DIR: 'off',
    WEB_DIST: 'off',
    ADMIN_PASSWORD: 'admin-password-123',
  };
}

/**
 * The real server as its own process (`src/main.ts` under tsx, or its compiled copy: one process, so its memory
 * can be read from /proc), on SQLite in a fresh data directory, with a private TMPDIR, no library
 * seeding (unless `seededLibrary`) and no web app, on a free port.
 */
export async function startServerProcess(env: Record<string, string> = {}, options: { dataDir?: string; seededLibrary?: boolean } = {}): Promise<ServerProcess> {
  // A given data directory is the caller's (a restart over the same data): kept at stop.
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'bt-proc-data-'));
  // `seededLibrary`: the library the repository's fixtures seed, from the copy kept by an earlier
  // server when there is one (support/library-cache.ts); this server seeds it and keeps it if not.
  const repoDir = join(SERVER_DIR, '..', '..');
  const cache = options.seededLibrary ? libraryCacheDir(repoDir, repoDir) : null;
  const copied = cache !== null && copyKeptLibrary(cache, dataDir);
  const tmpDir = mkdtempSync(join(tmpdir(), 'bt-proc-tmp-'));
  const child: ChildProcess = spawn(process.execPath, entryArgs('main'), {
    cwd: SERVER_DIR,
    env: {
      ...serverProcessEnv(dataDir),
      TMPDIR: tmpDir,
      SMTP_URL: '',
      VERIFY_ON_SCREEN: 'credits',
      PASSWORD_HASH_COST: '14',
      ...(options.seededLibrary ? { SEED_DIR: '' } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  // What this start made for itself goes with it: a refused start (startup-refusals.test.ts)
  // has no stop() to call, and left two directories in the system's temp dir for each.
  const removeOwn = () => {
    if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    rmSync(tmpDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  let url = '';
  while (!url) {
    const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
    if (match) url = match[1];
    else if (child.exitCode !== null) {
      removeOwn();
      throw new Error(`the server exited (${child.exitCode}):\n${output}`);
    } else if (Date.now() > deadline) {
      child.kill('SIGKILL');
      await exited;
      removeOwn();
      throw new Error(`the server did not start within 60 s:\n${output}`);
    } else await new Promise((r) => setTimeout(r, 100));
  }
  // The library is seeded before the server listens: it is complete now.
  if (cache !== null && !copied) keepLibrary(join(dataDir, 'library'), cache);
  return {
    url,
    pid: child.pid!,
    dataDir,
    tmpDir,
    output: () => output,
    exited: () => exited,
    peakRss() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
      return kb * 1024;
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        // The bound's timer is cleared once the process is gone: left pending, it kept the test file's
        // process alive for the rest of its 10 s after the last test (docs/development.md).
        let bound: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([exited, new Promise((r) => (bound = setTimeout(r, 10_000)))]);
        clearTimeout(bound);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      removeOwn();
    },
  };
}
