// The build's second step: the sandbox's Python runner (src/strategies/sandbox/runner/*.py) beside
// the compiled isolation.js in dist/, where it looks for it (tsc copies only TypeScript's output).
import { cpSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const server = join(dirname(fileURLToPath(import.meta.url)), '..');
const from = join(server, 'src', 'strategies', 'sandbox', 'runner');
const to = join(server, 'dist', 'strategies', 'sandbox', 'runner');
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true, filter: (path) => !path.includes('__pycache__') });
