// The build's second step: the files beside the compiled modules in dist/ that look for them next
// to themselves (tsc copies only TypeScript's output): the sandbox's Python runner
// (src/strategies/sandbox/runner/*.py, beside isolation.js) and the PDFs' fonts (src/pdf/fonts/,
// beside pdf/fonts.js). `node scripts/copy-assets.mjs [outDir]`: dist/ unless told (the test of
// this step copies into a temporary folder).
import { cpSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const server = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? join(server, 'dist'));
const ASSETS = [join('strategies', 'sandbox', 'runner'), join('pdf', 'fonts')];
for (const folder of ASSETS) {
  const to = join(out, folder);
  rmSync(to, { recursive: true, force: true });
  cpSync(join(server, 'src', folder), to, { recursive: true, filter: (path) => !path.includes('__pycache__') });
}
