// An engine pool closed while its threads start (src/jobs/pool.ts): on Node 20, a thread ended
// while require() instantiated its ES module graph aborted the whole process, which took down a
// test file whose app closed right after its first backtest, and would take down a server stopped
// soon after its start (docs/server.md, "Engine threads"). Checked in a process of its own, as the
// server runs: the compiled copy's JavaScript on plain Node in the suite (scripts/compiled-suite.mjs).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { scriptArgs } from './support/entry.js';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));

describe('EnginePool: closed while its threads start', () => {
  it('pools closed at any moment of their threads’ start end cleanly, the process with them', () => {
    const child = spawnSync(process.execPath, [...scriptArgs('test/support/pool-close-while-starting'), '10000'], {
      cwd: PACKAGE,
      encoding: 'utf8',
      timeout: 120_000,
    });
    assert.equal(child.signal, null, `the process was ended by ${child.signal}: ${child.stderr.slice(0, 600)}`);
    assert.equal(child.status, 0, child.stderr);
    assert.doesNotMatch(child.stderr, /FATAL ERROR/);
    const { closes, loadMs } = JSON.parse(child.stdout.trim().split('\n').pop() ?? '{}') as { closes: number; loadMs: number };
    assert.ok(closes >= 10 && loadMs > 0, `${closes} pools closed while starting (a thread's load: ${loadMs} ms)`);
  });
});
