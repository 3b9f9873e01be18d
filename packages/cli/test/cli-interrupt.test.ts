// A bt process interrupted while it writes (Ctrl-C, a kill) leaves no hidden temporary file beside
// its output, and the output as it was (src/interrupt.ts, core's node/temp-files; docs/cli.md
// "Files bt writes"): the built CLI converts 1.5 million candles to CSV and is killed as soon as
// its temporary file appears; it ends 130 on SIGINT and 143 on SIGTERM, as a shell reports them.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { candlesFromColumns } from '@bt/core/candles';
import { writeCandlesFile } from '@bt/core/node';
import { bin, tempDir } from './helpers.js';

const tmp = tempDir('bt-cli-interrupt-');
const input = join(tmp.dir, 'EURUSD_M1_big.csv');
after(() => tmp.remove());

before(async () => {
  const n = 1_500_000;
  const time = new Float64Array(n);
  const open = new Float64Array(n);
  const high = new Float64Array(n);
  const low = new Float64Array(n);
  const close = new Float64Array(n);
  const volume = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    time[i] = Date.UTC(2020, 0, 1) + i * 60_000;
    open[i] = 1.1 + (i % 100) * 1e-5;
    close[i] = open[i] + 2e-5;
    high[i] = close[i] + 1e-5;
    low[i] = open[i] - 1e-5;
    volume[i] = 100 + (i % 7);
  }
  await writeCandlesFile(input, candlesFromColumns({ time, open, high, low, close, volume }, { symbol: 'EURUSD' }));
});

/** Runs `bt convert` into `out` and sends `signal` once its temporary file is there; resolves with how it ended. */
function interrupted(out: string, signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; sawTemp: boolean; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'convert', input, out], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    let sawTemp = false;
    const poll = setInterval(() => {
      if (!sawTemp && readdirSync(tmp.dir).some((f) => f.endsWith('.tmp'))) {
        sawTemp = true;
        child.kill(signal);
      }
    }, 1);
    child.on('error', reject);
    child.on('exit', (code, sig) => {
      clearInterval(poll);
      resolve({ code, signal: sig, sawTemp, stderr });
    });
  });
}

for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  test(`${signal} during a long write: exit ${code}, no temporary file, the previous output untouched`, async () => {
    const out = join(tmp.dir, `out-${signal}.csv`);
    writeFileSync(out, 'the previous output\n');
    const run = await interrupted(out, signal);
    assert.ok(run.sawTemp, `the write was never seen under way: ${run.stderr}`);
    assert.deepEqual([run.code, run.signal], [code, null], run.stderr);
    assert.deepEqual(readdirSync(tmp.dir).filter((f) => f.endsWith('.tmp')), []);
    assert.equal(readFileSync(out, 'utf8'), 'the previous output\n');
  });
}

test('SIGKILL cannot be caught: its temporary file stays, and the next bt writing into that folder removes it', async () => {
  const out = join(tmp.dir, 'out-SIGKILL.csv');
  writeFileSync(out, 'the previous output\n');
  const run = await interrupted(out, 'SIGKILL');
  assert.ok(run.sawTemp, `the write was never seen under way: ${run.stderr}`);
  assert.equal(run.signal, 'SIGKILL');
  const left = readdirSync(tmp.dir).filter((f) => f.endsWith('.tmp'));
  assert.equal(left.length, 1, 'the killed process could not remove it');
  assert.equal(readFileSync(out, 'utf8'), 'the previous output\n');
  const next = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'convert', input, join(tmp.dir, 'next.arrow')], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', resolve);
  });
  assert.equal(next, 0);
  assert.deepEqual(readdirSync(tmp.dir).filter((f) => f.endsWith('.tmp')), [], 'the dead writer’s file swept');
});
