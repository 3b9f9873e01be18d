// The README's start command: install, build, migrate, then run the server in this process on
// the embedded default (SQLite under DATA_DIR, ./data unless set). Environment: docs/server.md.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBubblewrap } from './ensure-bubblewrap.mjs';
import { ensureInstall, root, run } from './ensure-install.mjs';
import { portProblem } from './port-check.mjs';

const taken = await portProblem(process.env.HOST?.trim() || '127.0.0.1', process.env.PORT?.trim() || '8080');
if (taken) {
  console.error(taken);
  process.exit(1);
}
ensureInstall();
ensureBubblewrap({ required: false });
run('npm', ['run', 'build']);
process.env.DATA_DIR ??= join(root, 'data');
// A local install without a mail server: the on-screen verification link also grants the sign-up
// credits, so whoever runs `npm start` can try a backtest. The server's own default is stricter
// (no credits for a link that was not mailed: docs/security.md).
if (!process.env.SMTP_URL && !process.env.VERIFY_ON_SCREEN) {
  process.env.VERIFY_ON_SCREEN = 'credits';
  console.log('bt: no SMTP_URL: the on-screen verification link grants the sign-up credits (VERIFY_ON_SCREEN=credits, for a local install)');
}
// A terminal reads `time LEVEL message` lines; deployments keep the JSON lines (docs/deployment.md).
process.env.LOG_FORMAT ??= 'text';
const main = join(root, 'packages', 'server', 'dist', 'main.js');
run(process.execPath, [main, 'migrate']);
console.log(`bt: starting the server (data in ${process.env.DATA_DIR}; stop it with Ctrl+C)`);
await import(pathToFileURL(main).href);
