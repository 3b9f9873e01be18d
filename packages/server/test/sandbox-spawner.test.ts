// The sandbox spawner alone (src/strategies/sandbox/spawner.ts; docs/security.md, "The strategy
// sandbox"): children are forked by a small process of its own, never by the server; every byte
// they write reaches the server; how they end is told as it was; a spawner that dies fails its
// calls, takes its children with it and is started again; and it does not outlive the server.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { SandboxSpawner, type SpawnedChild } from '../src/strategies/sandbox/spawner.js';
import { scriptArgs } from './support/entry.js';

const sh = (script: string) => ({ file: '/bin/sh', args: ['-c', script] });

function statusField(pid: number, field: string): string | null {
  try {
    return new RegExp(`^${field}:\\s*(.*)$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? null;
  } catch {
    return null;
  }
}

/** Alive and not a zombie. */
const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/^Z/.test(statusField(pid, 'State') ?? 'Z');

async function gone(pid: number, ms = 5000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return !alive(pid);
}

/** Everything a child writes on both pipes, and how it ended. */
function outcome(child: SpawnedChild): Promise<{ stdout: number; stderr: number; code: number | null; signal: string | null }> {
  let stdout = 0;
  let stderr = 0;
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.length));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.length));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code: number | null, signal: string | null) => resolve({ stdout, stderr, code, signal }));
  });
}

describe('the sandbox spawner', () => {
  it('forks children in a small process of its own, not in the server', async () => {
    const spawner = new SandboxSpawner();
    const child = await spawner.spawn(sh('read line'));
    const parent = Number(statusField(child.pid, 'PPid'));
    assert.equal(parent, spawner.pid, 'the child is the spawner’s');
    assert.notEqual(parent, process.pid);
    const rssKb = Number(/(\d+)/.exec(statusField(spawner.pid!, 'VmRSS') ?? '')?.[1]);
    assert.ok(rssKb > 0 && rssKb < 160 * 1024, `the spawner holds ${rssKb} kB`);
    const ended = outcome(child);
    child.stdin.end('\n');
    assert.deepEqual(await ended, { stdout: 0, stderr: 0, code: 0, signal: null });
  });

  it('hands over every byte a child writes at once, on both pipes, and what it read', async () => {
    const spawner = new SandboxSpawner();
    const run = async () => {
      // Written before the server could have its pipes: nothing may be read on the way.
      const child = await spawner.spawn(sh('head -c 1000000 /dev/zero; head -c 70000 /dev/zero >&2; wc -c'));
      const ended = outcome(child);
      let answer = '';
      child.stdout.on('data', (chunk: Buffer) => (answer = (answer + chunk.toString('latin1')).slice(-20)));
      child.stdin.end(Buffer.alloc(3_000_000, 0x61));
      const result = await ended;
      assert.equal(/(\d+)\s*$/.exec(answer)?.[1], '3000000', 'the child read all its input');
      return result;
    };
    for (let round = 0; round < 4; round++) {
      const results = await Promise.all([run(), run(), run(), run(), run()]);
      for (const result of results) assert.deepEqual(result, { stdout: 1_000_000 + '3000000\n'.length, stderr: 70_000, code: 0, signal: null });
    }
  });

  it('tells an exit code and a signal as they were, and refuses a file that cannot start', async () => {
    const spawner = new SandboxSpawner();
    assert.deepEqual(await outcome(await spawner.spawn(sh('exit 7'))), { stdout: 0, stderr: 0, code: 7, signal: null });
    assert.deepEqual(await outcome(await spawner.spawn(sh('kill -9 $$'))), { stdout: 0, stderr: 0, code: null, signal: 'SIGKILL' });
    await assert.rejects(spawner.spawn({ file: '/nowhere/bwrap', args: [] }), /ENOENT/);
    assert.equal((await outcome(await spawner.spawn(sh('echo after')))).code, 0, 'the next call is served');
  });

  it('fails the calls of a spawner that died, kills their children, and starts a new one', async () => {
    const spawner = new SandboxSpawner();
    const child = await spawner.spawn(sh('read line; sleep 30'));
    const first = spawner.pid!;
    const failed = new Promise<Error>((resolve) => child.once('error', resolve));
    process.kill(first, 'SIGKILL');
    assert.match((await failed).message, /the sandbox spawner ended \(SIGKILL\)/);
    assert.ok(await gone(child.pid), 'the child was killed with its spawner');
    const next = await outcome(await spawner.spawn(sh('echo again')));
    assert.equal(next.code, 0);
    assert.notEqual(spawner.pid, first, 'a new spawner');
  });

  it('does not outlive the process that started it, nor do its children', async () => {
    const owner = spawn(process.execPath, scriptArgs('test/support/spawner-owner'), { stdio: ['ignore', 'pipe', 'inherit'] });
    let line = '';
    const pids = await new Promise<{ spawner: number; child: number }>((resolve, reject) => {
      owner.stdout.on('data', (chunk: Buffer) => {
        line += chunk.toString();
        if (line.includes('\n')) resolve(JSON.parse(line));
      });
      owner.once('exit', (code) => reject(new Error(`the owner exited (${code}) before it said its pids`)));
    });
    assert.ok(alive(pids.spawner) && alive(pids.child));
    owner.kill('SIGKILL');
    assert.ok(await gone(pids.spawner), 'the spawner ended with its owner');
    assert.ok(await gone(pids.child), 'and the child with the spawner');
  });
});
