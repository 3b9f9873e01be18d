// `npm run bench`: runs every benchmark script in bench/ (one file per area, helpers in bench/lib/),
// one after the other, each in its own process. Each script rewrites its own section of
// docs/PERFORMANCE.md.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const scripts = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts')
  .filter((f) => only.length === 0 || only.some((name) => f.startsWith(name)))
  .sort();
let failed = 0;
for (const script of scripts) {
  console.log(`\n== bench/${script}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--conditions=@bt/source', join(here, script)], { stdio: 'inherit', cwd: join(here, '..') });
  if (result.status !== 0) {
    console.error(`bench/${script} failed (exit ${result.status ?? result.signal})`);
    failed++;
  }
}
process.exit(failed ? 1 : 0);
