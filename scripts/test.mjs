// The README's test command: install what the tests need, typecheck every package, run every
// package's node:test suite (the server's queue tests need Redis: 127.0.0.1:6379, started if
// need be, or BT_TEST_REDIS_URL), `bt regress` (the golden results), the browser tests of the web
// app (built app served by the real server, Debian Chromium), then the server's suite again on
// MariaDB and the Deno smoke suite (both need MariaDB on 127.0.0.1:3306, root without password,
// or BT_TEST_MYSQL_URL).
import { ensureBubblewrap } from './ensure-bubblewrap.mjs';
import { ensureChromium } from './ensure-chromium.mjs';
import { ensureRedis } from './ensure-redis.mjs';
import { ensureInstall, run } from './ensure-install.mjs';

ensureInstall();
// Checked first: a missing browser or sandbox should stop the run before minutes of other suites.
ensureChromium();
ensureBubblewrap({ required: true });
await ensureRedis();
run('npm', ['run', 'typecheck', '--workspaces', '--if-present']);
run('npm', ['run', 'test', '--workspaces', '--if-present']);
// The golden results through the installed command, as CI users run it (exit 1 on any drift);
// the CLI's pretest above built packages/cli/dist.
run('node', ['packages/cli/dist/bin.js', 'regress']);
// The web app as users get it: the built bundle, served by the server, driven in Chromium.
run('npm', ['run', 'build', '-w', '@bt/web']);
run('npm', ['run', 'e2e', '-w', '@bt/web']);
run('npm', ['run', 'test:mariadb', '-w', '@bt/server']);
// Deno does not know the @bt/source condition: it loads @bt/core from dist/.
run('npm', ['run', 'build', '-w', '@bt/core']);
run('npm', ['run', 'test:deno', '-w', '@bt/server']);
