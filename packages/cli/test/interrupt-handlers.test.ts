// bt's signal handlers (src/interrupt.ts) are there only while a temporary file is being written:
// a Ctrl-C or a kill during a long synchronous stretch ends bt at once instead of waiting for the
// stretch to end (a JavaScript handler runs only when the event loop turns).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cliDir, scriptArgs, tempDir } from './helpers.js';

function run(args: string[], signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...scriptArgs('test/support/interrupt-child'), ...args], { cwd: cliDir, stdio: ['ignore', 'pipe', 'inherit'] });
    let sent = 0;
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      if (sent === 0 && d.includes('ready')) {
        // Past the `ready` write, into the synchronous loop or the wait.
        setTimeout(() => {
          sent = Date.now();
          child.kill(signal);
        }, 300);
      }
    });
    child.on('error', reject);
    child.on('exit', (code, sig) => resolve({ code, signal: sig, ms: Date.now() - sent }));
  });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  test(`${signal} during a synchronous stretch without a file being written ends bt at once`, { timeout: 60_000 }, async () => {
    const r = await run(['busy'], signal);
    assert.equal(r.signal, signal, `ended with ${r.code}`);
    assert.ok(r.ms < 5_000, `${r.ms} ms after the signal`);
  });
}

test('SIGTERM while a temporary file is unfinished: removed, exit 143', { timeout: 60_000 }, async () => {
  const tmp = tempDir();
  try {
    const file = join(tmp.dir, '.out.csv.0123456789ab.tmp');
    const r = await run(['writing', file], 'SIGTERM');
    assert.deepEqual([r.code, r.signal], [143, null]);
    assert.equal(existsSync(file), false);
  } finally {
    tmp.remove();
  }
});
