// A candle file whose extension names no format (`.dat`, none) is recognised by its first bytes,
// then read as its format is: CSV in pieces, a workbook through the workbook guard, JSON within
// its bound (src/node/candle-files.ts readSniffedFile).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, createWriteStream, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CandleFileError } from '@bt/core/candles';
import { MAX_JSON_CANDLE_BYTES, MAX_WHOLE_FILE_BYTES, readCandlesFile, UnreadableFileError, WORKBOOK_FILE_BUDGET } from '@bt/core/node';
import { zipParts } from '../src/report/zip.js';

const dir = mkdtempSync(join(tmpdir(), 'bt-unknown-ext-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const official = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'official', 'EURUSD_H1_2017-2018.csv');

/** 5,000,001 empty rows: 55 MB of XML that deflates to a few hundred kilobytes. */
async function workbookBomb(): Promise<Uint8Array> {
  const rows = WORKBOOK_FILE_BUDGET.maxRows + 1;
  const row = new TextEncoder().encode('<row></row>');
  const sheet = new Uint8Array(row.length * rows);
  for (let i = 0; i < rows; i++) sheet.set(row, i * row.length);
  return zipParts([{ name: 'xl/worksheets/sheet1.xml', data: sheet }], new Date(0));
}

test('a workbook bomb named .dat (or with no extension, or piped) meets the workbook guard, not exceljs', async () => {
  const bytes = await workbookBomb();
  for (const name of ['bomb.dat', 'bomb']) {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    await assert.rejects(readCandlesFile(path), (e: unknown) => e instanceof UnreadableFileError && e.message === `cannot read ${path}: a workbook of more than 5,000,000 rows`, name);
  }
  const pipe = join(dir, 'bomb-pipe');
  assert.equal(spawnSync('mkfifo', [pipe]).status, 0);
  const writer = new Promise<void>((resolve) => createWriteStream(pipe).on('error', () => resolve()).end(bytes, () => resolve()));
  const [error] = await Promise.all([readCandlesFile(pipe).then(() => null, (e: unknown) => e), writer]);
  assert.ok(error instanceof UnreadableFileError && error.message === `cannot read ${pipe}: a workbook of more than 5,000,000 rows`, String(error));
});

test('a CSV named .dat past 2 GiB is read in pieces like a .csv, not refused as too big to read whole', async () => {
  const path = join(dir, 'big.dat');
  copyFileSync(official, path);
  // A sparse tail of zeros: the CSV reader stops at its first 1 MiB line, after the real candles.
  truncateSync(path, MAX_WHOLE_FILE_BYTES + 1);
  await assert.rejects(readCandlesFile(path), (e: unknown) => e instanceof CandleFileError && e.problems.some((p) => p.code === 'line_too_long'), 'streamed to the line without a break');
  rmSync(path);
});

test('a .dat file reads as the same candles as its .csv; JSON sniffed past 128 MiB is refused before it is read', async () => {
  const path = join(dir, 'EURUSD_H1.dat');
  copyFileSync(official, path);
  const [asDat, asCsv] = await Promise.all([readCandlesFile(path), readCandlesFile(official)]);
  assert.deepEqual(asDat.candles.close, asCsv.candles.close);
  assert.deepEqual(asDat.candles.time, asCsv.candles.time);
  const json = join(dir, 'big-json.dat');
  writeFileSync(json, '  \n[');
  truncateSync(json, MAX_JSON_CANDLE_BYTES + 1);
  await assert.rejects(readCandlesFile(json), (e: unknown) => e instanceof UnreadableFileError && /larger than 128 MiB, the most a JSON candle file is read as/.test(e.message));
});
