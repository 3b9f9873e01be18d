// bt batch's memory check needs each data file's candles before the workers start. A CSV is not
// parsed whole on the main thread for it any more (the workers parse it again): its lines are
// counted, its header and first rows parsed for the columns (docs/cli.md "bt batch", Workers).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataSizes } from '../src/batch/memory.js';
import type { DataSpec } from '../src/batch/plan.js';
import { loadCandles } from '../src/data.js';
import { tempDir } from './helpers.js';

const spec = (path: string): DataSpec => ({ path, label: path, read: {}, symbol: 'EURUSD' });

/** `rows` H1 candles from 2020-01-01, with an indicator column and a text column (not kept). */
function csv(rows: number, options: { eol?: string; finalEol?: boolean; badRow?: number; symbolRow?: boolean } = {}): string {
  const eol = options.eol ?? '\n';
  const lines = ['Datetime,Open,High,Low,Close,Volume,RSI,Note'];
  if (options.symbolRow) lines.push('EURUSD,,,,,,,');
  const t0 = Date.UTC(2020, 0, 1);
  for (let i = 0; i < rows; i++) {
    const time = new Date(t0 + i * 3600_000).toISOString().replace('T', ' ').replace('.000Z', '+00:00');
    const high = i === options.badRow ? '1.0500' : '1.1010';
    lines.push(`${time},1.1000,${high},1.0990,1.1005,${100 + (i % 50)},${(i % 100) + 0.5},note ${i % 7}`);
  }
  return lines.join(eol) + (options.finalEol === false ? '' : eol);
}

const shape = (s: { length: number; extra: object }) => [s.length, Object.keys(s.extra)];

test("a CSV past its first MiB: the reader's exact count and kept columns, without parsing it whole", async () => {
  const tmp = tempDir();
  try {
    const rows = 40_000; // about 2.8 MB
    const files = [
      ['lf.csv', csv(rows)],
      ['crlf-no-final-eol.csv', csv(rows, { eol: '\r\n', finalEol: false })],
      ['symbol-row.csv', csv(rows, { symbolRow: true })],
    ] as const;
    for (const [name, text] of files) {
      const path = join(tmp.dir, name);
      writeFileSync(path, text);
      assert.ok(text.length > 2 * 2 ** 20, name);
      const parsed = (await loadCandles(path, {}, 'EURUSD')).file.candles;
      assert.deepEqual(shape(parsed), [rows, ['RSI']], `${name}: what the reader keeps`);
      assert.deepEqual((await dataSizes([spec(path)])).map(shape), [shape(parsed)], name);
    }
  } finally {
    tmp.remove();
  }
});

test('a CSV whose rows past its first MiB are refused counts as its lines, not as empty: its rows are not parsed on the main thread', async () => {
  const tmp = tempDir();
  try {
    const path = join(tmp.dir, 'late-bad-row.csv');
    writeFileSync(path, csv(40_000, { badRow: 35_000 }));
    await assert.rejects(loadCandles(path, {}, 'EURUSD'), /High/);
    // Each worker parses the file up to that row (its columns sized for the whole file): the bound
    // holds for that memory too.
    assert.deepEqual((await dataSizes([spec(path)])).map(shape), [[40_000, ['RSI']]]);
  } finally {
    tmp.remove();
  }
});

test('a CSV whose first rows do not read, or a small one, is parsed whole as before', async () => {
  const tmp = tempDir();
  try {
    const early = join(tmp.dir, 'early-bad-row.csv');
    writeFileSync(early, csv(30_000, { badRow: 10 }));
    const small = join(tmp.dir, 'small.csv');
    writeFileSync(small, csv(100, { badRow: 90 }));
    const good = join(tmp.dir, 'good-small.csv');
    writeFileSync(good, csv(100));
    assert.deepEqual((await dataSizes([spec(early), spec(small), spec(good)])).map(shape), [[0, []], [0, []], [100, ['RSI']]]);
  } finally {
    tmp.remove();
  }
});
