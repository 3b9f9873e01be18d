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

export function ensureInstall() {
  const lock = readFileSync(join(root, 'package-lock.json'));
  const digest = createHash('sha256').update(lock).digest('hex');
  const stamp = join(root, 'node_modules', '.bt-install-stamp');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return;
  console.log('bt: installing locked dependencies (npm ci)…');
  run('npm', ['ci', '--no-audit', '--no-fund'], {}, () => {
    // Without a prebuilt binary to download (no access to GitHub), sqlite3 builds from source with
    // node-gyp, whose include paths split at spaces: 170 lines of compiler output end in 'napi.h:
    // No such file or directory'. The last line then says why (docs/server.md, "Running it").
    if (/\s/.test(root)) console.error(`bt: the path has a space ("${root}"): node-gyp cannot build the native SQLite module (sqlite3) there; clone or move the repository to a path without spaces`);
  });
  writeFileSync(stamp, digest);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureInstall();
