// Installs the locked dependencies when node_modules is missing or older than package-lock.json,
// so `npm start` and `npm test` work on a fresh clone with nothing but Node and npm.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** What the test command prints after each step: one line, so a slow CI run says which step took the minutes. */
export function stepLine(cmd, args, status, ms) {
  return `bt: '${cmd} ${args.join(' ')}' ${status === 0 ? `took ${(ms / 1000).toFixed(0)} s` : `failed (exit ${status})`}`;
}

export function run(cmd, args, options = {}, onFailure = () => {}) {
  const started = Date.now();
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...options });
  const status = result.status ?? result.signal;
  if (status !== 0) {
    console.error(stepLine(cmd, args, status, 0));
    onFailure();
    process.exit(result.status || 1);
  }
  console.log(stepLine(cmd, args, 0, Date.now() - started));
}

/** The oldest system SQLite the server is built against: RETURNING (3.35), built-in JSON (3.38). */
export const SYSTEM_SQLITE_FLOOR = 3_038_000;

/**
 * How npm ci builds sqlite3, which can download no prebuilt binary here (docs/development.md, "The
 * SQLite the install builds against"): against the system's SQLite when its development files are
 * there and recent enough (Debian's libsqlite3-dev: only the addon is compiled, about 15 s), else
 * the SQLite amalgamation bundled with sqlite3 (about 105 s of CPU). `BT_BUNDLED_SQLITE=1` forces
 * the bundled one. Answers the environment for npm ci and a note saying which.
 */
export function systemSqlite({ header = '/usr/include/sqlite3.h', env = process.env, findLibrary = libraryPath } = {}) {
  const bundled = (why) => ({ env: {}, note: `the SQLite bundled with sqlite3: ${why}` });
  if (env.BT_BUNDLED_SQLITE === '1') return bundled('BT_BUNDLED_SQLITE=1');
  if (!existsSync(header)) return bundled(`no ${header} (Debian: apt-get install libsqlite3-dev)`);
  const version = Number(/#define SQLITE_VERSION_NUMBER (\d+)/.exec(readFileSync(header, 'utf8'))?.[1] ?? 0);
  if (version < SYSTEM_SQLITE_FLOOR) return bundled(`the system's SQLite (${sqliteVersion(version)}) is older than ${sqliteVersion(SYSTEM_SQLITE_FLOOR)}`);
  if (!findLibrary()) return bundled('no libsqlite3.so for the linker');
  // node-gyp reads npm_config_sqlite as binding.gyp's `sqlite` variable; prebuild-install's
  // download (which cannot succeed here) is skipped for sqlite3 alone.
  return { env: { npm_config_sqlite: dirname(dirname(header)), npm_config_build_from_source: 'sqlite3' }, note: `sqlite3 built against the system's SQLite ${sqliteVersion(version)}` };
}

/** SQLITE_VERSION_NUMBER (3040001) as people write it (3.40.1). */
export const sqliteVersion = (n) => (n ? `${Math.floor(n / 1e6)}.${Math.floor(n / 1e3) % 1e3}.${n % 1e3}` : 'no version');

/** Where the linker finds libsqlite3.so (the dev package's link), or null. */
function libraryPath() {
  const found = spawnSync('cc', ['-print-file-name=libsqlite3.so'], { encoding: 'utf8' });
  const path = found.status === 0 ? found.stdout.trim() : '';
  return path.startsWith('/') && existsSync(path) ? path : null;
}

export function ensureInstall() {
  const lock = readFileSync(join(root, 'package-lock.json'));
  const digest = createHash('sha256').update(lock).digest('hex');
  const stamp = join(root, 'node_modules', '.bt-install-stamp');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return;
  const sqlite = systemSqlite();
  console.log(`bt: installing locked dependencies (npm ci; ${sqlite.note})…`);
  run('npm', ['ci', '--no-audit', '--no-fund'], { env: { ...process.env, ...sqlite.env } }, () => {
    // Without a prebuilt binary to download (no access to GitHub), sqlite3 builds from source with
    // node-gyp, whose include paths split at spaces: 170 lines of compiler output end in 'napi.h:
    // No such file or directory'. The last line then says why (docs/server.md, "Running it").
    if (/\s/.test(root)) console.error(`bt: the path has a space ("${root}"): node-gyp cannot build the native SQLite module (sqlite3) there; clone or move the repository to a path without spaces`);
  });
  writeFileSync(stamp, digest);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureInstall();
