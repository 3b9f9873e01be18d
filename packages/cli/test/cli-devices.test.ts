// Every command that reads a path given on the command line refuses a device before reading a byte
// (/dev/zero and /dev/urandom never end: they used to fill memory until the process died), reads a
// pipe (`--data <(zcat ...)`), and stops a pipe that never sends a line break at 1 MiB
// (docs/cli.md, "Candle files").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createWriteStream, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bt, EURUSD_H1, mapLimit, tempDir } from './helpers.js';

const REFUSED = (path: string) => `bt: cannot read ${path}: not a regular file (a character device)\n`;
const BACKTEST = ['--strategy', 'englobante_entry', '--sl', '10', '--tp1', '10', '--tp2', '20'];

test('a device given to any command is refused with exit 1 and one sentence', async () => {
  const tmp = tempDir();
  try {
    const out = join(tmp.dir, 'out.csv');
    const cases: [string[], string][] = [
      [['backtest', '--data', '/dev/zero', ...BACKTEST], '/dev/zero'],
      [['backtest', '--data', '/dev/urandom', ...BACKTEST, '--json'], '/dev/urandom'],
      [['optimize', '--data', '/dev/zero', ...BACKTEST, '--no-progress'], '/dev/zero'],
      [['walk-forward', '--data', '/dev/zero', ...BACKTEST, '--in-sample', '60d', '--out-of-sample', '30d', '--no-progress'], '/dev/zero'],
      [['zones', '--data', '/dev/urandom', '--pattern', 'fvg'], '/dev/urandom'],
      [['enrich', '/dev/zero', '-o', out], '/dev/zero'],
      [['convert', '/dev/urandom', out], '/dev/urandom'],
      [['batch', '/dev/zero'], '/dev/zero'],
      [['regress', '/dev/urandom'], '/dev/urandom'],
      [['report', '/dev/zero'], '/dev/zero'],
    ];
    const runs = await mapLimit(cases, 2, ([args]) => bt(args));
    cases.forEach(([args, path], i) => assert.deepEqual({ code: runs[i].code, stderr: runs[i].stderr }, { code: 1, stderr: REFUSED(path) }, args.join(' ')));
    const validate = await bt(['validate', '/dev/zero']);
    assert.equal(validate.code, 1);
    assert.match(validate.stdout + validate.stderr, /\/dev\/zero: cannot read \/dev\/zero: not a regular file \(a character device\)/);
  } finally {
    tmp.remove();
  }
});

test('a pipe is read: a backtest on a named pipe equals the one on the file, and a pipe of zeros stops at 1 MiB', async () => {
  const tmp = tempDir();
  try {
    const pipe = join(tmp.dir, 'candles.csv');
    assert.equal(spawnSync('mkfifo', [pipe]).status, 0);
    const fromFile = await bt(['backtest', '--data', EURUSD_H1, ...BACKTEST, '--json']);
    const writer = new Promise<void>((resolve, reject) => createWriteStream(pipe).on('error', reject).end(readFileSync(EURUSD_H1), () => resolve()));
    const [fromPipe] = await Promise.all([bt(['backtest', '--data', pipe, '--symbol', 'EURUSD', '--timeframe', 'H1', ...BACKTEST, '--json']), writer]);
    assert.equal(fromPipe.code, 0, fromPipe.stderr);
    const run = (r: { stdout: string }) => JSON.parse(r.stdout) as { trades: unknown[]; statistics: unknown };
    assert.ok(run(fromFile).trades.length > 100);
    assert.deepEqual(run(fromPipe).trades, run(fromFile).trades);
    assert.deepEqual(run(fromPipe).statistics, run(fromFile).statistics);

    const zeros = join(tmp.dir, 'zeros.csv');
    assert.equal(spawnSync('mkfifo', [zeros]).status, 0);
    const endless = new Promise<void>((resolve) => {
      const out = createWriteStream(zeros);
      const piece = Buffer.alloc(64 * 1024);
      const pump = () => {
        while (out.write(piece));
      };
      out.on('open', pump).on('drain', pump).on('error', () => resolve());
    });
    const [stopped] = await Promise.all([bt(['backtest', '--data', zeros, ...BACKTEST]), endless]);
    assert.equal(stopped.code, 1);
    assert.match(stopped.stderr, /^bt: .*zeros\.csv: 1 problem in candle file\n {2}line 1: more than 1 MiB without a line break\n/);
  } finally {
    tmp.remove();
  }
});

test('a JSON candle file past 128 MiB is exit 1 before it is read, naming the file, the limit and CSV (a sparse file)', async () => {
  const tmp = tempDir();
  try {
    const big = join(tmp.dir, 'BTC_USDT-1m.json');
    writeFileSync(big, '[');
    truncateSync(big, 128 * 2 ** 20 + 1);
    const why = `bt: cannot read ${big}: larger than 128 MiB, the most a JSON candle file is read as: JSON is parsed whole; save the candles as .csv, which bt reads in pieces without this limit\n`;
    const out = join(tmp.dir, 'out.csv');
    const runs = await mapLimit([['backtest', '--data', big, ...BACKTEST], ['convert', big, out]], 2, (args) => bt(args));
    for (const run of runs) assert.deepEqual(run, { code: 1, stdout: '', stderr: why });
    assert.deepEqual(readdirSync(tmp.dir), ['BTC_USDT-1m.json'], 'no output');
  } finally {
    tmp.remove();
  }
});
