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
import { runSideBySide } from './parallel.mjs';

ensureInstall();
// Seconds: every reference in code and docs points inside the repository (docs/development.md).
run('node', ['scripts/check-references.mjs']);
// Checked first: a missing browser or sandbox should stop the run before minutes of other suites.
ensureChromium();
ensureBubblewrap({ required: true });
await ensureRedis();
// Every package's types, two at a time (about 35 s one after another, 20 s side by side).
const typecheck = (pkg) => ['npm', ['run', 'typecheck', '-w', pkg]];
await runSideBySide([typecheck('@bt/server'), typecheck('@bt/core')], [[typecheck('@bt/web'), typecheck('@bt/cli')]]);
// Two chains side by side on a 2-core machine (scripts/parallel.mjs), with no barrier between
// them: the suites wait on processes, browsers and databases as much as they compute, and a step
// that waited for the other chain's longest suite left a core idle (docs/development.md, "The
// test command"). One chain: the server's suite on SQLite, then on MariaDB, then the Deno smoke
// suite. The other: the core's, CLI's and web unit suites, `bt regress`, then the web app as users
// get it (the built bundle, served by the server, driven in Chromium). Which chain the core's
// suite joins evens them (docs/development.md, "Balancing the two chains", "Cheaper hashes, fewer
// repeats", "The SQLite the install builds against" and "The CLI's suite two files at a time").
await runSideBySide(
  [
    ['npm', ['run', 'test', '-w', '@bt/server']],
    ['npm', ['run', 'test:mariadb', '-w', '@bt/server']],
    // Deno does not know the @bt/source condition: it loads @bt/core from dist/, which nothing in
    // the other chain reads (the CLI's dist is one bundle, the browser tests' server and Vite load
    // core's sources), so it is built here while the browser tests go on.
    ['npm', ['run', 'build', '-w', '@bt/core']],
    ['npm', ['run', 'test:deno', '-w', '@bt/server']],
  ],
  [
    [
      ['npm', ['run', 'test', '-w', '@bt/core']],
      ['npm', ['run', 'test', '-w', '@bt/cli']],
      ['npm', ['run', 'test', '-w', '@bt/web']],
      // The golden results through the installed command, as CI users run it (exit 1 on any
      // drift); the CLI's pretest built packages/cli/dist.
      ['node', ['packages/cli/dist/bin.js', 'regress']],
      ['npm', ['run', 'build', '-w', '@bt/web']],
      ['npm', ['run', 'e2e', '-w', '@bt/web']],
    ],
  ],
);
