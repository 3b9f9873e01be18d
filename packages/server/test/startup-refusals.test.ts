import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { preflight } from '../src/config/preflight.js';
import { openDatabase } from '../src/db/index.js';
import { SQLITE_PASS_ONLY } from './support/db.js';
import { startServerProcess } from './support/server-process.js';
import { startWorkerProcess } from './support/worker-process.js';
import { entryArgs } from './support/entry.js';

/**
 * What the real server process does with a value it cannot use (docs/server.md, "Environment"):
 * exit 1 with one line naming the variable, no stack trace, nothing written before it.
 */
async function refusal(env: Record<string, string>, options: { dataDir?: string } = {}): Promise<string> {
  const err = await startServerProcess(env, options).then(
    async (server) => {
      await server.stop();
      throw new Error(`the server started with ${JSON.stringify(env)}:\n${server.output()}`);
    },
    (e: Error) => e,
  );
  const match = /^the server exited \((\d+)\):\n([\s\S]*)$/.exec(err.message);
  assert.ok(match, err.message);
  assert.equal(match[1], '1', err.message);
  const lines = match[2].split('\n').filter(Boolean);
  assert.equal(lines.length, 1, `one line:\n${match[2]}`);
  assert.doesNotMatch(lines[0], /^\s+at |\bat .*\.ts:\d+/, 'no stack trace');
  return lines[0];
}

/**
 * The same refusal in this process: the checks main.ts runs before it opens anything
 * (`preflight`), on the environment `startServerProcess` gives, and the message main.ts prints
 * as its one line (`bt: ` and the message, never the stack). The process starts above prove
 * that wiring once; each value's message is judged here, without a process start of its own.
 */
async function refusedInProcess(env: Record<string, string>, then?: (checked: Awaited<ReturnType<typeof preflight>>) => Promise<unknown>): Promise<string> {
  const dataDir = mkdtempSync(join(work, 'in-process-'));
  const source = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', SEED_DIR: 'off', WEB_DIST: 'off', SMTP_URL: '', VERIFY_ON_SCREEN: 'credits', PASSWORD_HASH_COST: '14', ADMIN_PASSWORD: 'admin-password-123', ...env };
  const err = await preflight('serve', source)
    .then(async (checked) => {
      await then?.(checked);
      return new Error(`accepted: ${JSON.stringify(env)}`);
    })
    .then(
      (e) => assert.fail(e.message),
      (e: Error) => e,
    );
  assert.ok(err.message && !err.message.includes('\n'), `one line: ${err.message}`);
  return `bt: ${err.message}`;
}

let work: string;
before(() => {
  work = mkdtempSync(join(tmpdir(), 'bt-refusals-'));
});
after(() => rmSync(work, { recursive: true, force: true }));

describe('the start refuses what it cannot use, in one line', { skip: SQLITE_PASS_ONLY }, () => {
  it('DATA_DIR that is a file, that cannot be created, or under /proc (it hung for ever)', async () => {
    const file = join(work, 'a-file');
    writeFileSync(file, 'x');
    assert.match(await refusedInProcess({ DATA_DIR: file }), /^bt: invalid DATA_DIR: .*a-file is a file, not a directory$/);
    assert.match(await refusedInProcess({ DATA_DIR: join(file, 'data') }), /^bt: invalid DATA_DIR: .*a-file \(in .*a-file\/data\) is a file, not a directory$/);
    assert.match(await refusedInProcess({ DATA_DIR: '/sys/bt-data' }), /^bt: invalid DATA_DIR: cannot create \/sys\/bt-data \(E[A-Z]+\)$/);
    // A real process for the one that hung for ever: a hang here is bounded by the start's 60 s.
    assert.match(await refusal({ DATA_DIR: '/proc/bt-data/x' }), /"msg":"bt: invalid DATA_DIR: cannot create \/proc\/bt-data \(ENOENT\)"/);
  });

  it('DATA_DIR that exists but this process may not write (the server run as another user)', { skip: process.getuid?.() === 0 ? false : 'needs root to start the server as nobody' }, async () => {
    const dir = join(work, 'not-writable');
    mkdirSync(dir);
    chmodSync(work, 0o755);
    chmodSync(dir, 0o755);
    const child = spawn(process.execPath, entryArgs('main'), {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { PATH: process.env.PATH ?? '', HOME: '/tmp', TMPDIR: '/tmp', PORT: '0', DATA_DIR: dir, SEED_DIR: 'off', WEB_DIST: 'off' },
      uid: 65534,
      gid: 65534,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    assert.equal(code, 1, output);
    assert.match(output, /^\{[^\n]*"msg":"bt: invalid DATA_DIR: .*not-writable is not writable by this process \(EACCES\)"\}\n$/);
  });

  it('the worker names a DATA_DIR it cannot use too', async () => {
    const file = join(work, 'worker-file');
    writeFileSync(file, 'x');
    const err = await startWorkerProcess({ DATA_DIR: file, REDIS_URL: 'redis://127.0.0.1:6379', DATABASE_URL: '' }).then(
      async (worker) => {
        await worker.stop();
        return new Error('the worker started');
      },
      (e: Error) => e,
    );
    assert.match(err.message, /^the worker exited \(1\):\n.*bt-worker: failed: invalid DATA_DIR: .*worker-file is a file, not a directory"\}\n$/s);
  });

  it('PORT in use: named, and nothing done before (no migration, no admin, no password printed)', async () => {
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', () => r()));
    const port = (holder.address() as AddressInfo).port;
    const dataDir = join(work, 'port-in-use');
    try {
      const line = await refusal({ PORT: String(port), ADMIN_PASSWORD: '' }, { dataDir });
      assert.match(line, new RegExp(`"msg":"bt: invalid PORT: ${port} is already in use on 127\\.0\\.0\\.1 \\(another bt server running\\? stop it or set PORT to a free port\\)"`));
      assert.equal(existsSync(join(dataDir, 'bt.sqlite')), false, 'no database created');
    } finally {
      holder.close();
    }
  });

  it('SEED_DIR set to a folder that does not exist (it seeded nothing, one line per missing file)', async () => {
    assert.match(await refusedInProcess({ SEED_DIR: join(work, 'no-fixtures') }), /^bt: invalid SEED_DIR: .*no-fixtures does not exist \(ENOENT; the fixtures folder, or off\)$/);
  });

  it('PORT and HOST the system refuses', async () => {
    assert.match(await refusedInProcess({ HOST: '203.0.113.7', PORT: '18080' }), /^bt: invalid HOST: 203\.0\.113\.7 is not an address of this machine/);
  });

  it('DATABASE_URL with an unescaped password: named without the password (before: a host lookup of a piece of it, the URL printed whole)', async () => {
    const line = await refusedInProcess({ DATABASE_URL: 'mysql://bt:p@ss:w/rd#hunter2@127.0.0.1:3306/bt' });
    assert.match(line, /^bt: invalid DATABASE_URL: mysql:\/\/\*\*\*@127\.0\.0\.1:3306\/bt \(expected mysql:\/\/user:password@host:port\/database; percent-encode/);
    assert.doesNotMatch(line, /hunter2|w\/rd/);
    assert.match(await refusedInProcess({ DATABASE_URL: 'mysql://bt:pw@127.0.0.1:99999/bt' }), /^bt: invalid DATABASE_URL: mysql:\/\/\*\*\*@127\.0\.0\.1:99999\/bt/);
    assert.match(await refusedInProcess({ DATABASE_URL: 'mysql://bt:pw@127.0.0.1:3306' }), /^bt: invalid DATABASE_URL: .*the database's name is missing/);
  });

  it('DATABASE_URL unreachable: the variable named, the password masked', async () => {
    // What main.ts opens right after the checks, with what they read.
    const line = await refusedInProcess({ DATABASE_URL: 'mysql://bt:hunter2@127.0.0.1:1/bt' }, ({ env }) => openDatabase(env.databaseUrl, { dataDir: env.dataDir, poolMax: env.dbPoolMax }));
    assert.match(line, /^bt: cannot connect to the database at DATABASE_URL mysql:\/\/bt:\*\*\*@127\.0\.0\.1:1\/bt: .*ECONNREFUSED/);
    assert.doesNotMatch(line, /hunter2/);
  });
});

describe('the first start', { skip: SQLITE_PASS_ONLY }, () => {
  it('prints the generated admin password once; the next start never prints it again', async () => {
    const dataDir = join(work, 'first-start');
    const first = await startServerProcess({ ADMIN_PASSWORD: '' }, { dataDir });
    await first.stop();
    const password = /password: (\S+?)"/.exec(first.output())?.[1];
    assert.ok(password && password.length >= 12, first.output());
    assert.equal(first.output().split(password).length - 1, 1, 'printed once');
    const second = await startServerProcess({ ADMIN_PASSWORD: '' }, { dataDir });
    await second.stop();
    assert.ok(!second.output().includes(password), second.output());
    assert.doesNotMatch(second.output(), /admin account created/);
  });
});
