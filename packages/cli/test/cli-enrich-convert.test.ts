// bt enrich and bt convert: core's indicators and writers behind a command; files read back
// with core's reader to the same values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ema, rsi } from '@bt/core/indicators';
import { readCandlesFile } from '@bt/core/node';
import { bt, EURUSD_H1, fixture, readerMessage, tempDir, mapLimit } from './helpers.js';

const sameArray = (a: Float64Array, b: Float64Array, what: string) => {
  assert.equal(a.length, b.length, what);
  for (let i = 0; i < a.length; i++) assert.ok(Object.is(a[i], b[i]), `${what}[${i}]: ${a[i]} vs ${b[i]}`);
};

test('enrich writes the official CSV with RSI_14, EMA_50, EMA_200 by default, equal to core\'s indicators', async () => {
  const tmp = tempDir();
  try {
    const out = join(tmp.dir, 'EURUSD_H1_enriched.csv');
    const r = await bt(['enrich', EURUSD_H1, '-o', out]);
    assert.deepEqual(r, { code: 0, stdout: `${out}: 5,000 candles, added RSI_14, EMA_50, EMA_200\n`, stderr: '' });
    const { candles: source } = await readCandlesFile(EURUSD_H1);
    const { candles } = await readCandlesFile(out);
    assert.deepEqual(Object.keys(candles.extra), ['RSI_14', 'EMA_50', 'EMA_200']);
    sameArray(candles.extra.RSI_14, rsi(source.close, 14), 'RSI_14');
    sameArray(candles.extra.EMA_50, ema(source.close, 50), 'EMA_50');
    sameArray(candles.extra.EMA_200, ema(source.close, 200), 'EMA_200');
    sameArray(candles.close, source.close, 'Close');

    const again = join(tmp.dir, 'again.csv');
    const kept = await bt(['enrich', out, '-o', again, '--rsi', '7,14', '--no-ema']);
    assert.deepEqual(kept, { code: 0, stdout: `${again}: 5,000 candles, added RSI_7; kept the file's own RSI_14\n`, stderr: '' });
  } finally {
    tmp.remove();
  }
});

test('convert: CSV → Arrow IPC → XLSX → CSV keeps every value, symbol and timeframe', async () => {
  const tmp = tempDir();
  try {
    const arrow = join(tmp.dir, 'a.arrow');
    const xlsx = join(tmp.dir, 'b.xlsx');
    const csv = join(tmp.dir, 'c.csv');
    assert.deepEqual(await bt(['convert', EURUSD_H1, arrow]), { code: 0, stdout: `${arrow}: 5,000 candles H1 EURUSD (from official ${EURUSD_H1})\n`, stderr: '' });
    assert.equal((await bt(['convert', arrow, xlsx])).code, 0);
    assert.equal((await bt(['convert', xlsx, csv])).code, 0);
    const original = (await readCandlesFile(EURUSD_H1)).candles;
    const ipc = await readCandlesFile(arrow);
    assert.equal(ipc.symbol, 'EURUSD');
    assert.equal(ipc.timeframe, 'H1');
    const back = (await readCandlesFile(csv)).candles;
    for (const column of ['time', 'open', 'high', 'low', 'close', 'volume'] as const) {
      sameArray(ipc.candles[column], original[column], `arrow ${column}`);
      sameArray(back[column], original[column], `csv ${column}`);
    }
  } finally {
    tmp.remove();
  }
});

test('convert reads other layouts with their flags: backtrader in exchange time to the official CSV', async () => {
  const tmp = tempDir();
  try {
    const out = join(tmp.dir, 'STOXX_M5.csv');
    const r = await bt(['convert', fixture('backtrader/2006-min-005.txt'), out, '--utc-offset', '+01:00']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${out}: 2,142 candles M5 (from backtrader ${fixture('backtrader/2006-min-005.txt')})\n`);
    const { candles } = await readCandlesFile(out);
    assert.equal(new Date(candles.time[0]).toISOString(), '2006-01-02T08:05:00.000Z');
  } finally {
    tmp.remove();
  }
});

test('bad input: missing file and malformed CSV exit 1; bad flags and outputs exit 2', async () => {
  const tmp = tempDir();
  try {
    const bad = join(tmp.dir, 'bad.csv');
    writeFileSync(bad, 'Datetime;Open;High;Low;Close;Volume\n2024-01-01 00:00:00+00:00;1,1;1,2;1,0;1,15;10\n');
    const out = join(tmp.dir, 'out.csv');
    const missing = fixture('missing.csv');
    const cases: [string[], number, string][] = [
      [['enrich', missing, '-o', out], 1, `bt: cannot read ${missing}: no such file\n`],
      [['convert', missing, out], 1, `bt: cannot read ${missing}: no such file\n`],
      [['enrich', bad, '-o', out], 1, `bt: ${await readerMessage(bad)}\n`],
      [['convert', bad, out], 1, `bt: ${await readerMessage(bad)}\n`],
      [['enrich', EURUSD_H1, '-o', out, '--rsi', 'fourteen'], 2, 'bt: invalid --rsi: "fourteen" (expected whole periods from 1 to 100,000, comma-separated)\n'],
      [['enrich', EURUSD_H1, '-o', out, '--no-rsi', '--no-ema'], 2, 'bt: nothing to add: give --rsi or --ema periods (or drop --no-rsi / --no-ema)\n'],
      [['enrich', EURUSD_H1, '-o', join(tmp.dir, 'out.parquet')], 2, `bt: invalid --output: "${join(tmp.dir, 'out.parquet')}" (expected a .csv, .xlsx, .arrow, .ipc, .arrows or .json file)\n`],
      [['enrich', EURUSD_H1], 2, "bt: required option '-o, --output <file>' not specified\n(run 'bt help' or add --help for usage)\n"],
      [['convert', EURUSD_H1, join(tmp.dir, 'x.doc')], 2, `bt: invalid <out>: "${join(tmp.dir, 'x.doc')}" (expected a .csv, .xlsx, .arrow, .ipc, .feather, .arrows or .json file)\n`],
      [['convert', EURUSD_H1, EURUSD_H1], 2, `bt: invalid <out>: "${EURUSD_H1}" is the input file\n`],
      [['convert', EURUSD_H1, join(tmp.dir, 'x.xlsx'), '--dates', 'serial'], 2, "bt: option '--dates <kind>' argument 'serial' is invalid. Allowed choices are text, excel.\n(run 'bt help' or add --help for usage)\n"],
      [['convert', EURUSD_H1, join(tmp.dir, 'no-such-dir', 'x.csv')], 1, `bt: cannot write ${join(tmp.dir, 'no-such-dir', 'x.csv')}: the folder ${join(tmp.dir, 'no-such-dir')} does not exist\n`],
      [['enrich', EURUSD_H1, '-o', join(tmp.dir, 'no-such-dir', 'x.csv')], 1, `bt: cannot write ${join(tmp.dir, 'no-such-dir', 'x.csv')}: the folder ${join(tmp.dir, 'no-such-dir')} does not exist\n`],
    ];
    const runs = await mapLimit(cases, 4, ([args]) => bt(args));
    cases.forEach(([args, code, stderr], i) => assert.deepEqual(runs[i], { code, stdout: '', stderr }, args.join(' ')));
  } finally {
    tmp.remove();
  }
});
