// `npm run worker`: one bt-worker process (docs/queue.md) beside a server started by `npm start`:
// the same data directory (./data unless DATA_DIR is set) and REDIS_URL, which it requires.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureInstall, root, run } from './ensure-install.mjs';

ensureInstall();
run('npm', ['run', 'build', '-w', '@bt/core', '-w', '@bt/server']);
process.env.DATA_DIR ??= join(root, 'data');
await import(pathToFileURL(join(root, 'packages', 'server', 'dist', 'worker.js')).href);
