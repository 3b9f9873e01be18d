// The candle CSVs bt convert and bt enrich write follow the cell rule of every CSV bt writes
// (docs/cli.md "CSV files", docs/csv-format.md "Column names that look like formulas"): a column
// name a spreadsheet would run is written with a leading apostrophe, quoted, and reads back as a
// column of that name (apostrophe included); numbers, negative ones too, are written as they are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { candlesToCsv, readCandlesCsv } from '@bt/core/candles';
import { readCandlesFile } from '@bt/core/node';
import { bt, EURUSD_H1, tempDir } from './helpers.js';

const OFFICIAL = 'Datetime,Open,High,Low,Close,Volume';
/** The first candles of the official fixture, exactly as bt writes them. */
const ROWS = readFileSync(EURUSD_H1, 'utf8').split('\n').slice(1, 41);
const extraCells = (i: number) => `${i % 2 ? -0.5 : 1.25},-3,2,${-i / 4}`;

/** A candle file whose extra columns are named like formulas, with negative values. */
function hostileFile(dir: string): string {
  const path = join(dir, 'hostile.csv');
  const head = `${OFFICIAL},@SUM(1+1)*cmd|' /C calc'!A0,"=HYPERLINK(""http://evil"",""x"")",-Delta,Change`;
  writeFileSync(path, [head, ...ROWS.map((row, i) => `${row},${extraCells(i)}`)].join('\n') + '\n');
  return path;
}

const NEUTRALISED = `${OFFICIAL},"'@SUM(1+1)*cmd|' /C calc'!A0","'=HYPERLINK(""http://evil"",""x"")","'-Delta",Change`;
const READ_BACK = ["'@SUM(1+1)*cmd|' /C calc'!A0", `'=HYPERLINK("http://evil","x")`, "'-Delta", 'Change'];

test('bt convert: extra columns named like formulas are written with an apostrophe, quoted; their negative numbers untouched', async () => {
  const tmp = tempDir();
  try {
    const out = join(tmp.dir, 'out.csv');
    const r = await bt(['convert', hostileFile(tmp.dir), out]);
    assert.equal(r.code, 0, r.stderr);
    const lines = readFileSync(out, 'utf8').split('\n');
    assert.equal(lines[0], NEUTRALISED);
    assert.deepEqual(lines.slice(1, -1), ROWS.map((row, i) => `${row},${extraCells(i)}`));
    // Read back by bt: the same columns, named as a spreadsheet shows them, the same values.
    const { candles } = await readCandlesFile(out);
    assert.deepEqual(Object.keys(candles.extra), READ_BACK);
    assert.deepEqual([...candles.extra["'-Delta"]].slice(0, 2), [2, 2]);
    assert.deepEqual([...candles.extra['Change']].slice(0, 3), [0, -0.25, -0.5]);
    // A second conversion keeps those names: a name that starts with an apostrophe is not run.
    const again = join(tmp.dir, 'again.csv');
    assert.equal((await bt(['convert', out, again])).code, 0);
    assert.deepEqual(Object.keys((await readCandlesFile(again)).candles.extra), READ_BACK);
    assert.equal(readFileSync(again, 'utf8').split('\n')[0], `${OFFICIAL},'@SUM(1+1)*cmd|' /C calc'!A0,"'=HYPERLINK(""http://evil"",""x"")",'-Delta,Change`);
  } finally {
    tmp.remove();
  }
});

test('bt enrich: the file\'s own columns named like formulas are neutralised beside the added ones', async () => {
  const tmp = tempDir();
  try {
    const out = join(tmp.dir, 'enriched.csv');
    const r = await bt(['enrich', hostileFile(tmp.dir), '-o', out, '--rsi', '14', '--no-ema']);
    assert.equal(r.code, 0, r.stderr);
    const lines = readFileSync(out, 'utf8').split('\n');
    assert.equal(lines[0], `${NEUTRALISED},RSI_14`);
    assert.ok(lines.slice(1, -1).every((line, i) => line.startsWith(`${ROWS[i]},${extraCells(i)},`)), lines[1]);
    assert.deepEqual(Object.keys((await readCandlesFile(out)).candles.extra), [...READ_BACK, 'RSI_14']);
  } finally {
    tmp.remove();
  }
});

test('bt convert: a normal candle file, negative extra values included, comes back byte for byte', async () => {
  const tmp = tempDir();
  try {
    const plain = join(tmp.dir, 'plain.csv');
    writeFileSync(plain, [`${OFFICIAL},RSI_14,Change`, ...ROWS.map((row, i) => `${row},${50 + i},${-i / 4}`)].join('\n') + '\n');
    for (const input of [EURUSD_H1, plain]) {
      const out = join(tmp.dir, 'out.csv');
      const r = await bt(['convert', input, out]);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(readFileSync(out).equals(readFileSync(input)), input);
    }
  } finally {
    tmp.remove();
  }
});

test('the symbol row of the official CSV is neutralised the same way and reads back with its apostrophe', () => {
  const source = readCandlesCsv([OFFICIAL, ...ROWS].join('\n') + '\n', { symbol: '=EURUSD' }).candles;
  const csv = candlesToCsv(source, { symbolRow: true });
  assert.equal(csv.split('\n')[1], `,"'=EURUSD","'=EURUSD","'=EURUSD","'=EURUSD","'=EURUSD"`);
  assert.equal(readCandlesCsv(csv).symbol, "'=EURUSD");
  assert.equal(candlesToCsv({ ...source, symbol: 'EURUSD' }, { symbolRow: true }).split('\n')[1], ',EURUSD,EURUSD,EURUSD,EURUSD,EURUSD');
});
