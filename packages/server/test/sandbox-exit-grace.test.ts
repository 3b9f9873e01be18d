/**
 * The sandbox's grace after its child exits (docs/security.md, "The strategy sandbox"): an answer
 * already in the pipe is read even when the server's event loop was busy past the grace, and a
 * pipe held open by a process that outlived the child, silent or trickling, is closed in bounded
 * time. The launcher is a shell script in place of bubblewrap: the child exits at once and leaves
 * a background process holding its stdout, which is what a slow read looks like to the server.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { PythonSandbox, SandboxError } from '../src/strategies/sandbox/sandbox.js';
import { signalCount } from '../src/strategies/sandbox/signal-columns.js';

const dir = mkdtempSync(join(tmpdir(), 'bt-sandbox-grace-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const INFO = { function: 'detect_x', detect_id: 'x', line: 1, meta: {} };
const ANSWER = JSON.stringify({ ok: true, info: INFO, signals: [], elapsed_ms: 1 });

/** A sandbox whose child runs `script` under /bin/sh (no bubblewrap: nothing of the user's runs here). */
function shellSandbox(script: string): PythonSandbox {
  return new PythonSandbox({ ready: true, launcher: { description: 'sh (test)', command: () => ({ file: '/bin/sh', args: ['-c', script] }) } }, { concurrency: 1 });
}

/** The child's process group (the sandbox starts it detached): what the script leaves running is killed with it. */
function killGroupOf(pidFile: string): void {
  try {
    process.kill(-Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
  } catch {
    // Already gone.
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Keeps the event loop busy: nothing else runs, not even a read of a pipe. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

async function until(path: string): Promise<void> {
  const deadline = performance.now() + 30_000;
  while (!existsSync(path)) {
    assert.ok(performance.now() < deadline, `${path} never appeared`);
    await sleep(5);
  }
}

describe('the sandbox after its child exited', () => {
  it('reads an answer that reached the pipe while the event loop was busy past the grace', { timeout: 60_000 }, async () => {
    const exited = join(dir, 'exited');
    // The child exits at once; its answer comes 300 ms later from the background process that
    // keeps its stdout (bubblewrap's exit and the answer's last bytes, read a little apart).
    const sandbox = shellSandbox(`(sleep 0.3; printf '%s' '${ANSWER}') & : > '${exited}'; exit 0`);
    const answer = sandbox.run({ source: 'x', mode: 'check' });
    await until(exited);
    // The child's exit seen, then the loop held for 2.5 s: the grace's timer is due before the
    // pipe is read again, with the answer waiting in it. Held from an immediate, so the next turn
    // of the loop starts with its timers (a timer callback would end its turn's timers first, at
    // the time the turn started, and the pipe would be read before the grace came due).
    await sleep(50);
    await new Promise<void>((resolve) => setImmediate(() => resolve(busy(2500))));
    const result = await answer;
    assert.deepEqual(result.info, INFO);
    assert.equal(signalCount(result.signals), 0);
  });

  it('stops waiting for a pipe held open by a silent process one grace after the exit', { timeout: 60_000 }, async () => {
    const ms = await cutAfter('silent', '(exec sleep 20) & exit 0');
    assert.ok(ms < 15_000, `answered after ${Math.round(ms)} ms, not after the process holding the pipe`);
  });

  it('stops waiting for a pipe that a process keeps trickling into, after a bounded number of graces', { timeout: 60_000 }, async () => {
    // A byte every 200 ms for 60 s, on stderr (print() output): each grace sees something new.
    const ms = await cutAfter('trickle', '(i=0; while [ $i -lt 300 ]; do printf . >&2; sleep 0.2; i=$((i+1)); done) & exit 0');
    assert.ok(ms >= 5_000 && ms < 30_000, `answered after ${Math.round(ms)} ms: more than one grace while output came, far less than the 60 s it would have held`);
  });
});

/**
 * Runs `script` (its child exits, something it started keeps the pipes) and returns how long the
 * sandbox took to give up on an answer; what the script left running is killed after.
 */
async function cutAfter(name: string, script: string): Promise<number> {
  const group = join(dir, name);
  const sandbox = shellSandbox(`echo $$ > '${group}'; ${script}`);
  const started = performance.now();
  try {
    await assert.rejects(sandbox.run({ source: 'x', mode: 'check' }), (err: SandboxError) => err instanceof SandboxError && err.code === 'protocol');
  } finally {
    killGroupOf(group);
  }
  return performance.now() - started;
}
