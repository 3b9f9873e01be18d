// The browser tests drive Debian's Chromium through playwright-core, never a downloaded browser
// (TOOLCHAIN.md). Missing and running as root with apt-get: install the distribution's package;
// otherwise stop with what to do. BT_CHROMIUM names another binary.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const chromiumPath = () => process.env.BT_CHROMIUM || '/usr/bin/chromium';

function hasAptGet() {
  return spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
}

export function ensureChromium() {
  const path = chromiumPath();
  if (existsSync(path)) return path;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (process.env.BT_CHROMIUM || !root || !hasAptGet()) {
    console.error(
      `bt: Chromium not found at ${path}. The browser tests need Debian's Chromium: ` +
        `run 'apt-get update && apt-get install -y chromium' as root, or set BT_CHROMIUM to a Chromium binary.`,
    );
    process.exit(1);
  }
  console.log('bt: installing Chromium for the browser tests (apt-get install -y chromium)…');
  for (const args of [['update'], ['install', '-y', 'chromium']]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (result.status !== 0) {
      console.error(`bt: 'apt-get ${args.join(' ')}' failed (exit ${result.status ?? result.signal}); install Chromium by hand or set BT_CHROMIUM.`);
      process.exit(1);
    }
  }
  if (!existsSync(path)) {
    console.error(`bt: apt-get installed chromium but ${path} is still missing; set BT_CHROMIUM.`);
    process.exit(1);
  }
  return path;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(`bt: Chromium at ${ensureChromium()}`);
