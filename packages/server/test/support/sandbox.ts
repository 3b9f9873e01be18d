import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { RUNNER_DIR, prepareSandbox, type SandboxLauncher, type SandboxSetup } from '../../src/strategies/sandbox/isolation.js';
import { PythonSandbox, sandboxSelfTest, type SandboxLimits } from '../../src/strategies/sandbox/sandbox.js';

/** The interpreter of the sandbox tests: Debian's, whose files the sandbox's user can read. */
export const TEST_PYTHON = process.env.BT_TEST_PYTHON ?? '/usr/bin/python3';

let setup: Promise<SandboxSetup> | undefined;
/** The sandbox of the tests, as the server opens it (bubblewrap and its self-test), once per process. */
export function testSandboxSetup(): Promise<SandboxSetup> {
  setup ??= prepareSandbox({ python: TEST_PYTHON, bwrap: process.env.BT_TEST_BWRAP, selfTest: sandboxSelfTest });
  return setup;
}

/** A sandbox of the tests' own (the setup must be ready: bubblewrap is installed by `npm test`). */
export async function testSandbox(options: { limits?: Partial<SandboxLimits>; concurrency?: number } = {}): Promise<PythonSandbox> {
  const ready = await testSandboxSetup();
  if (!ready.ready) throw new Error(`the strategy sandbox is not available: ${ready.reason}`);
  return new PythonSandbox(ready, options);
}

/**
 * Tests only: the runner straight under Python, without bubblewrap, as the user running the tests,
 * to show the Python-level layer holds alone. The server has no such launcher.
 */
export function unisolatedLauncher(python = TEST_PYTHON): SandboxLauncher {
  return {
    description: `unisolated ${python} (tests only)`,
    command: () => ({ file: python, args: ['-I', '-S', '-B', join(RUNNER_DIR, 'main.py')] }),
  };
}

/** A sandbox user of the test's own (an id no account has), so the test can find every process it left. */
export function privateSandboxUid(): number {
  return 200_000 + Math.floor(Math.random() * 100_000);
}

/** The sandbox as the server opens it, its children run as a user id of the test's own (it must be ready). */
export async function privateSandbox(): Promise<{ uid: number; setup: SandboxSetup }> {
  const uid = privateSandboxUid();
  const setup = await prepareSandbox({ python: TEST_PYTHON, bwrap: process.env.BT_TEST_BWRAP, uid, gid: uid, selfTest: sandboxSelfTest });
  if (!setup.ready) throw new Error(`the strategy sandbox is not available: ${setup.reason}`);
  return { uid, setup };
}

/** Every live process (zombies are dead) whose real user id is `uid`, with its command line (from /proc). */
export function processesOf(uid: number): { pid: number; command: string }[] {
  const found: { pid: number; command: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      if (Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]) !== uid || /^State:\s+Z/m.test(status)) continue;
      found.push({ pid: Number(entry), command: readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim() });
    } catch {
      // Gone between the listing and the read.
    }
  }
  return found;
}

/**
 * The live processes of `uid` still there after `ms`: none, once a sandbox is over. Killing its pid
 * namespace is asynchronous (the kernel kills its init when bubblewrap dies, then the rest), so
 * this waits up to `ms` for them to go.
 */
export async function survivorsOf(uid: number, ms = 5000): Promise<{ pid: number; command: string }[]> {
  const deadline = Date.now() + ms;
  let left = processesOf(uid);
  while (left.length && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    left = processesOf(uid);
  }
  return left;
}
