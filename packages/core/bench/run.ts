// `npm run bench`: runs every bench/*.bench.ts in its own process, one after the other (so each
// one's memory figures are its own and nothing runs in parallel on a shared machine). Each script
// rewrites its own `<!-- bench:NAME -->` section of docs/PERFORMANCE.md.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const scripts = readdirSync(here)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => only.length === 0 || only.some((o) => name.includes(o)))
  .sort();
let failed = 0;
for (const name of scripts) {
  console.log(`\n== ${name}`);
  const run = spawnSync(process.execPath, [...process.execArgv, join(here, name)], { stdio: 'inherit' });
  if (run.status !== 0) {
    failed++;
    console.error(`${name} failed (exit ${run.status ?? run.signal})`);
  }
}
process.exitCode = failed ? 1 : 0;
