import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sampleCandles } from '../src/strategies/contract.js';
import { PythonSandbox, SandboxError, type SandboxLimits } from '../src/strategies/sandbox/sandbox.js';
import { TEST_DIALECT } from './support/db.js';
import { privateSandbox, survivorsOf } from './support/sandbox.js';

/**
 * Each resource limit of the sandbox alone (docs/security.md, "Limits and their variables"): the
 * others set far past what the attack needs, so the one under test is what stops it, and the
 * refusal names that limit. The strategy runs as a user id of the test's own, so no process of it
 * may be left afterwards.
 */
const ONCE = TEST_DIALECT === 'mysql' ? 'uses no database: runs in the SQLite pass' : false;
/** Nothing the attacks below would reach before the limit under test. */
const LOOSE: Partial<SandboxLimits> = { cpuSeconds: 60, wallMs: 60_000, memoryBytes: 1024 * 1024 * 1024, maxOutputBytes: 64 * 1024 * 1024 };
const fn = (body: string) => `def detect_x(candles, params):\n${body.split('\n').map((l) => `    ${l}`).join('\n')}\n`;
const candles = sampleCandles(60);

let uid: number;
let sandbox: PythonSandbox;
before(async () => {
  const { uid: id, setup } = await privateSandbox();
  uid = id;
  sandbox = new PythonSandbox(setup, { concurrency: 2 });
});
after(async () => {
  assert.deepEqual(await survivorsOf(uid), [], 'no sandbox process is left');
});

async function stopped(source: string, limits: Partial<SandboxLimits>): Promise<{ code: string; ms: number }> {
  const started = performance.now();
  try {
    await sandbox.run({ source, mode: 'run', candles, meta: { symbol: 'EURUSD', timeframe: 'H1', pip_size: 0.0001 }, limits: { ...LOOSE, ...limits } });
  } catch (err) {
    if (!(err instanceof SandboxError)) throw err;
    return { code: err.code, ms: performance.now() - started };
  }
  return { code: 'ran', ms: performance.now() - started };
}

describe('each resource limit of the sandbox alone', { skip: ONCE }, () => {
  it('the CPU limit stops an endless loop with no wall-clock limit in reach', async () => {
    const { code, ms } = await stopped(fn('while True:\n    pass'), { cpuSeconds: 1 });
    assert.equal(code, 'cpu_limit');
    // Stopped by this limit, not by LOOSE's 60 s: one CPU second takes ten of wall time on a machine
    // loaded twenty times over, so the bound sits under 60 s rather than near one.
    assert.ok(ms < 50_000, `${ms} ms`);
  });

  it('the wall-clock limit stops an endless loop with no CPU limit in reach', async () => {
    const { code, ms } = await stopped(fn('while True:\n    pass'), { wallMs: 1500 });
    assert.equal(code, 'wall_timeout');
    // Stopped by this limit, not by LOOSE's 60 s: the bound leaves a loaded machine time to start
    // bubblewrap and Python.
    assert.ok(ms < 50_000, `${ms} ms`);
  });

  it('the memory limit stops a growing bomb with no time limit in reach', async () => {
    const { code } = await stopped(fn('x = []\nwhile True:\n    x.append(bytearray(10 ** 7))'), { memoryBytes: 256 * 1024 * 1024 });
    assert.equal(code, 'memory');
  });

  it('the output limit stops a print flood with no time or memory limit in reach', async () => {
    const { code } = await stopped(fn('while True:\n    print("x" * 100000)'), { maxOutputBytes: 1024 * 1024 });
    assert.equal(code, 'output_too_large');
  });

  it('the signal limit refuses more signals than it allows, whatever the time and memory', async () => {
    const { code } = await stopped(fn('return [(i % 60, "buy") for i in range(1001)]'), { maxSignals: 1000 });
    assert.equal(code, 'bad_output');
  });
});
