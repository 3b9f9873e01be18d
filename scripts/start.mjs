// The README's start command: install, build, migrate, then run the server in this process on
// the embedded default (SQLite under DATA_DIR, ./data unless set). Environment: docs/server.md.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureInstall, root, run } from './ensure-install.mjs';

ensureInstall();
run('npm', ['run', 'build']);
process.env.DATA_DIR ??= join(root, 'data');
const main = join(root, 'packages', 'server', 'dist', 'main.js');
run(process.execPath, [main, 'migrate']);
console.log(`bt: starting the server (data in ${process.env.DATA_DIR}; stop it with Ctrl+C)`);
await import(pathToFileURL(main).href);
