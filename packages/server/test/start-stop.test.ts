// A stop asked while the server starts (src/app/start-stop.ts, docs/deployment.md "Stopping
// during the start"): the running step ends, no further one starts, what was opened is closed.
// Before, a SIGTERM during the start ended the process wherever it was, a migration half applied
// included. The start is held after each migration (BT_TEST_START_HOLD_MS) so the signal lands there.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { entryArgs } from './support/entry.js';
import { serverProcessEnv, startServerProcess } from './support/server-process.js';

const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));

/** An entry point as a process of its own, held after each step; SIGTERM once the first hold is logged. */
async function stopAtFirstHold(dataDir: string, options: { entry?: 'main' | 'worker'; args?: string[]; env?: Record<string, string> } = {}) {
  const child = spawn(process.execPath, [...entryArgs(options.entry ?? 'main'), ...(options.args ?? [])], {
    cwd: SERVER_DIR,
    env: {
      ...serverProcessEnv(dataDir),
      BT_TEST_START_HOLD_MS: '60000',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const deadline = Date.now() + 60_000;
  let held: RegExpExecArray | null = null;
  while (!(held = /test hold after (.+?) \(/.exec(output))) {
    assert.ok(Date.now() < deadline && child.exitCode === null, `no hold:\n${output}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  child.kill('SIGTERM');
  return { first: held[1], ...(await exited), output };
}

describe('a SIGTERM during the start', () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'bt-start-stop-'));
    dirs.push(dir);
    return dir;
  };
  after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('lets the running migration end, applies no other, closes the database and exits 0; the next start applies the rest', async () => {
    const dir = dataDir();
    const stopped = await stopAtFirstHold(dir);
    assert.deepEqual({ code: stopped.code, signal: stopped.signal }, { code: 0, signal: null }, stopped.output);
    assert.equal(stopped.first, 'migration 0001-accounts');
    assert.match(stopped.output, /SIGTERM received while starting: stopping once the current step ends/);
    assert.match(stopped.output, /bt: stopped during the start \(SIGTERM\)"/);
    assert.doesNotMatch(stopped.output, /test hold after migration 0002|listening on|not closed cleanly/, stopped.output);

    // The same data: the first migration is recorded, the others are applied now, and the server serves.
    const server = await startServerProcess({}, { dataDir: dir });
    try {
      const applied = /migrations applied: ([^"]+)"/.exec(server.output())?.[1].split(', ') ?? [];
      assert.equal(applied[0], '0002-working-area', server.output());
      assert.ok(!applied.includes('0001-accounts'));
      assert.equal((await fetch(`${server.url}/api/health`)).status, 200);
    } finally {
      await server.stop();
    }
  });

  it("`main.ts migrate` stopped between two migrations exits 1: a release step must not pass for done", async () => {
    const stopped = await stopAtFirstHold(dataDir(), { args: ['migrate'] });
    assert.deepEqual({ code: stopped.code, signal: stopped.signal }, { code: 1, signal: null }, stopped.output);
    assert.match(stopped.output, /bt: migrate stopped \(SIGTERM\) between two migrations: the others stay pending"/);
    assert.doesNotMatch(stopped.output, /migration\(s\) applied/);
  });

  it('bt-worker: closes its database and exits 0 (it exited 143 before)', async () => {
    const dir = dataDir();
    // A migrated database: the server's release step, run to its end.
    const migrated = spawn(process.execPath, [...entryArgs('main'), 'migrate'], { cwd: SERVER_DIR, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dir, DATABASE_URL: '' }, stdio: 'ignore' });
    assert.equal(await new Promise((resolve) => migrated.once('exit', resolve)), 0);
    // Redis is reached only once the worker takes jobs, after the hold: none is needed here.
    const stopped = await stopAtFirstHold(dir, { entry: 'worker', env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    assert.deepEqual({ code: stopped.code, signal: stopped.signal }, { code: 0, signal: null }, stopped.output);
    assert.equal(stopped.first, 'the database opened');
    assert.match(stopped.output, /bt-worker: SIGTERM received while starting/);
    assert.match(stopped.output, /bt-worker: stopped during the start \(SIGTERM\)"/);
    assert.doesNotMatch(stopped.output, /bt-worker: ready/);
  });
});
