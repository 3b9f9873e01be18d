// Debian packages the README's commands need (Chromium for the browser tests, bubblewrap for the
// strategy sandbox): present, its path; missing and running as root with apt-get, installed from
// the distribution; otherwise the sentence that says what to do.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

function hasAptGet() {
  return spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
}

/** `{ path }` when `path` is there (after installing `pkg` if need be), else `{ problem }`. */
export function ensureAptPackage({ path, pkg, purpose, overridden = false, override = '' }) {
  if (existsSync(path)) return { path };
  const howTo = `run 'apt-get update && apt-get install -y ${pkg}' as root${override ? `, or set ${override}` : ''}`;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (overridden || !root || !hasAptGet()) return { problem: `bt: ${pkg} not found at ${path}. ${purpose}: ${howTo}.` };
  console.log(`bt: installing ${pkg} (${purpose}): apt-get install -y ${pkg}…`);
  for (const args of [['update'], ['install', '-y', pkg]]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (result.status !== 0) return { problem: `bt: 'apt-get ${args.join(' ')}' failed (exit ${result.status ?? result.signal}); ${howTo}.` };
  }
  if (!existsSync(path)) return { problem: `bt: apt-get installed ${pkg} but ${path} is still missing; ${howTo}.` };
  return { path };
}
