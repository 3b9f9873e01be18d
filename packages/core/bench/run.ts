// `npm run bench`: runs every benchmark script of this folder in turn, each in its own process
// (with --expose-gc so they can collect between runs). Each script rewrites its own section of
// docs/PERFORMANCE.md. Helpers (synthetic.ts) and this file are skipped.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const skip = new Set(['run.ts', 'synthetic.ts']);
const only = process.argv.slice(2);
for (const file of readdirSync(here).filter((f) => f.endsWith('.ts') && !skip.has(f)).sort()) {
  if (only.length > 0 && !only.some((name) => file.startsWith(name))) continue;
  console.log(`\n== bench/${file}`);
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--conditions=@bt/source', join(here, file)], { stdio: 'inherit', cwd: join(here, '..') });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
