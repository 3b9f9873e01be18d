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
