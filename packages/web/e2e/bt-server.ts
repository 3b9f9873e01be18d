/**
 * Starts a real bt server for browser tests: SQLite in a fresh temporary data directory seeded
 * from fixtures/, a free port, no SMTP (verification links come back in the answers), serving the
 * built app of packages/web/dist (run `npm run build -w @bt/web` first) on the same origin as
 * the API. BT_SERVER_ENTRY points at its main.ts, run under tsx, or a main.js, run on Node
 * (default: packages/server/src/main.ts of this checkout, main.js in the suite's compiled copy).
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
// The seeded library, kept once per version of its inputs (the server's and the CLI's tests use it too).
import { copyKeptIndex, copyKeptLibrary, keepIndex, keepLibrary, keptIndexFile, libraryCacheDir } from '../../server/test/support/library-cache.js';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface RunningServer {
  url: string;
  admin: { email: string; password: string };
  stop: () => Promise<void>;
}

export interface BtServerOptions {
  /** The web app's base URL (default: the server's own, which serves packages/web/dist). */
  publicUrl?: (port: number) => string;
  /** Extra environment (rate limits, LLM_BASE_URL, ...). */
  env?: Record<string, string>;
}

export async function startBtServer(repoDir: string, options: BtServerOptions = {}): Promise<RunningServer> {
  const webDist = join(repoDir, 'packages', 'web', 'dist');
  if (!existsSync(join(webDist, 'index.html'))) throw new Error(`no web build in ${webDist}: run 'npm run build -w @bt/web' first`);
  // In the suite's compiled copy (scripts/compiled-suite.mjs) the server's main.js is beside its
  // main.ts and runs on plain Node, which spares each start seconds of tsx's loader.
  const compiled = import.meta.url.endsWith('.js');
  const entry = process.env.BT_SERVER_ENTRY ?? join(repoDir, 'packages', 'server', 'src', compiled ? 'main.js' : 'main.ts');
  if (!existsSync(entry)) throw new Error(`bt server entry not found: ${entry} (set BT_SERVER_ENTRY)`);
  const serverRoot = join(dirname(entry), '..', '..', '..');
  const dataDir = mkdtempSync(join(tmpdir(), 'bt-web-e2e-'));
  const cache = libraryCacheDir(repoDir, serverRoot);
  const seeded = copyKeptLibrary(cache, dataDir);
  const port = await freePort();
  const admin = { email: 'admin@bt.test', password: 'admin-password-123' };
  // The default database (DATA_DIR/bt.sqlite) starts as a copy of the first server's, when its
  // library is the kept one: the index is made, the start reads no month (library-cache.ts).
  const dbFile = join(dataDir, 'bt.sqlite');
  const defaultDatabase = (options.env?.DATABASE_URL ?? '') === '';
  const keptIndex = keptIndexFile(cache, serverRoot, `${admin.email} ${admin.password}`);
  const indexed = seeded && defaultDatabase && copyKeptIndex(keptIndex, dbFile);
  const spawnOptions: SpawnOptions = {
    cwd: dirname(entry),
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: options.publicUrl ? options.publicUrl(port) : `http://127.0.0.1:${port}`,
      WEB_DIST: webDist,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      SMTP_URL: '',
      DATABASE_URL: '',
      // As `npm start` does: the on-screen verification link grants the sign-up credits.
      VERIFY_ON_SCREEN: 'credits',
      // scrypt at N = 2^14 rather than the production 2^17 (128 MiB and ~0.4 s a hash, more on a
      // loaded CI machine): every test registers and signs in; the server's
      // test/security-sessions.test.ts checks the production cost (docs/development.md).
      PASSWORD_HASH_COST: '14',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  };
  const child: ChildProcess = entry.endsWith('.js')
    ? spawn(process.execPath, ['--conditions=@bt/source', '--enable-source-maps', entry], spawnOptions)
    : spawn(join(serverRoot, 'node_modules', '.bin', 'tsx'), ['--conditions=@bt/source', entry], spawnOptions);
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`bt server exited (${child.exitCode}):\n${output}`);
    try {
      const health = await fetch(`${url}/api/health`);
      if (health.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`bt server did not answer /api/health within 60 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  // The library is seeded before the server listens: it is complete now, and so is the index.
  if (!seeded) keepLibrary(join(dataDir, 'library'), cache);
  else if (defaultDatabase && !indexed) await keepIndex(dbFile, keptIndex);
  return {
    url,
    admin,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
