// The server's suite on MariaDB (`npm run test:mariadb`; docs/development.md, "The test command"):
// every test file but those below, which use no database at all, or only a server process that
// runs on SQLite whichever pass starts it. On MariaDB they would run the same code a second time;
// they run in the SQLite pass. This pass says which it leaves out, and why, before it starts.
// A file that touches the database in any way stays in both passes; inside such a file, a part
// that uses none skips itself here with `{ skip: SQLITE_PASS_ONLY }` (test/support/db.ts).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { runCompiledSuite } from '../../../scripts/compiled-suite.mjs';
import { SHARED, serverTestFiles } from './suite-files.mjs';

const SQLITE_PASS_ONLY = {
  'compiled-suite.test.ts': "the suites' compiled copy of the repository, no database",
  'connection-guard.test.ts': 'the connection cap, against a server process on SQLite',
  'datasets-bounded.test.ts': "the reindex's bounded concurrency helper, no database",
  'db-sqlite-stacks.test.ts': "Sequelize's SQLite statements and their stacks, SQLite only",
  'db-template-sqlite.test.ts': "the SQLite pass's own template copy, SQLite only",
  'engine-pool.test.ts': 'the engine threads, no database',
  'engine-pool-close.test.ts': 'engine threads closed while they start, no database',
  'engine-pool-lanes.test.ts': "the engine threads' two lanes, no database",
  'invoice-text-between-documents.test.ts': "invoice PDFs' text drawn one after another, no database",
  'library-cache-index.test.ts': "the browser tests' kept SQLite database, no server database",
  'ops-settings.test.ts': 'environment parsing and closers, no database',
  'parse-pool.test.ts': 'the upload parse processes, no database',
  'pdf-fonts.test.ts': "the PDFs' font files and the build's copy of them, no database",
  'queue-drop-waiting.test.ts': "removing a deleted account's jobs from Redis, no database",
  'queue-retention.test.ts': 'job retention in Redis, no database',
  'queue-wait.test.ts': 'waiting for a job in Redis, no database',
  'sandbox-exit-grace.test.ts': "the sandbox's wait for a child's pipes, no database",
  'sandbox-layers.test.ts': "the sandbox's OS and Python layers alone, no database",
  'sandbox-spawner.test.ts': "the process that starts the sandbox's children, no database",
  'shutdown.test.ts': 'graceful shutdown of a server process on SQLite',
  'start-stop.test.ts': 'a SIGTERM during the start of server and worker processes on SQLite',
  'storage-s3.test.ts': 'the S3 storage (s3rver), no database',
  'storage.test.ts': 'the local disk storage, no database',
  'test-failure-report.test.ts': "the test command's report of failed tests, no database",
  'test-harness-context.test.ts': "the test processes' replacement of node:test's async hook, no database",
};

const files = serverTestFiles();
// A renamed or removed file must not leave a stale entry that reads as coverage.
const unknown = Object.keys(SQLITE_PASS_ONLY).filter((name) => !files.includes(name));
if (unknown.length) {
  console.error(`scripts/test-mariadb.mjs lists files that do not exist: ${unknown.join(', ')}`);
  process.exit(2);
}

console.log(`MariaDB pass: ${Object.keys(SQLITE_PASS_ONLY).length} test files left out (they ran in the SQLite pass):`);
for (const [name, why] of Object.entries(SQLITE_PASS_ONLY)) console.log(`  ${name}: ${why}`);
const run = files.filter((name) => !(name in SQLITE_PASS_ONLY)).map((name) => `test/${name}`);
const tsx = createRequire(import.meta.url).resolve('tsx/cli');
const cwd = fileURLToPath(new URL('..', import.meta.url));
const server = process.env.BT_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';

// One migrated template for the whole pass; each file's database is a copy of it
// (test/support/db-template.ts; docs/development.md, "A migrated template for the MariaDB pass").
const template = `bt_test_template_${process.pid}_${randomBytes(4).toString('hex')}`;
async function dropTemplate() {
  const { createConnection } = await import('mysql2/promise');
  const conn = await createConnection(server);
  try {
    await conn.query(`DROP DATABASE IF EXISTS \`${template}\``);
  } finally {
    await conn.end();
  }
}

// The pass ends with its files (runCompiledSuite passes the signal on to them); the template is
// dropped once they have.
let stoppedBy = null;
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => (stoppedBy = signal));

let status = 1;
try {
  const made = spawnSync(process.execPath, [tsx, '--conditions=@bt/source', 'test/support/db-template-main.ts', template], { cwd, stdio: 'inherit' });
  if (made.error) throw made.error;
  if (made.status !== 0) throw new Error(`the template database ${template} could not be made (exit ${made.status ?? made.signal})`);
  if (!stoppedBy) {
    // Two files at a time, as the SQLite pass: each file has its own database (test/support/db.ts),
    // Redis key prefix, ports and temporary directories, and many of these files wait on workers,
    // timeouts and a paused Redis more than they compute (docs/development.md, "The test command").
    // On compiled JavaScript, most files several to a process, as the SQLite pass
    // (scripts/compiled-suite.mjs, scripts/suite-files.mjs).
    status = await runCompiledSuite(['--compile', 'core,server', '--test-concurrency=2', ...run], {
      cwd,
      shared: SHARED,
      env: { ...process.env, BT_TEST_DB: 'mariadb', BT_TEST_MYSQL_TEMPLATE: template },
    });
  }
} finally {
  await dropTemplate().catch((err) => {
    console.error(`MariaDB pass: could not drop the template database ${template}: ${err.message}`);
  });
}
process.exit(stoppedBy ? (stoppedBy === 'SIGINT' ? 130 : 143) : status);
