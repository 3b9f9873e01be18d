// Paths a user gives are read only as regular files or pipes, and bounded (src/node/user-file.ts):
// devices are refused before a byte is read, a pipe without line breaks stops at 1 MiB, a pipe
// read whole stops at its limit, and a pipe of good candles reads like the file it carries.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CandleFileError } from '@bt/core/candles';
import { checkWorkbookFile, MAX_CSV_LINE_BYTES, MAX_JSON_CANDLE_BYTES, readCandlesFile, readUserFile, UnreadableFileError, WORKBOOK_FILE_BUDGET } from '@bt/core/node';
import { zipParts } from '../src/report/zip.js';

const dir = mkdtempSync(join(tmpdir(), 'bt-user-files-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const official = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'official', 'EURUSD_H1_2017-2018.csv');

function fifo(name: string): string {
  const path = join(dir, name);
  const made = spawnSync('mkfifo', [path]);
  assert.equal(made.status, 0, `mkfifo: ${made.stderr}`);
  return path;
}

/** Writes `piece` into the pipe again and again until the reader goes away; resolves with the bytes written. */
function endlessWriter(path: string, piece: Buffer): Promise<number> {
  return new Promise((resolve) => {
    const out = createWriteStream(path);
    let written = 0;
    const pump = () => {
      while (out.write(piece)) written += piece.length;
      written += piece.length;
    };
    out.on('open', pump);
    out.on('drain', pump);
    out.on('error', () => resolve(written));
  });
}

/** Writes `bytes` into the pipe once, then closes it. */
function onceWriter(path: string, bytes: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(path);
    out.on('error', reject);
    out.end(bytes, () => resolve());
  });
}

test('a device is refused before anything is read, whatever the name says', async () => {
  for (const [path, kind] of [['/dev/zero', 'a character device'], ['/dev/urandom', 'a character device']] as const) {
    await assert.rejects(readCandlesFile(path), (e: unknown) => e instanceof UnreadableFileError && e.message === `cannot read ${path}: not a regular file (${kind})`);
  }
  for (const name of ['zeros.csv', 'zeros.json', 'zeros.xlsx', 'zeros.arrow']) {
    const link = join(dir, name);
    symlinkSync('/dev/zero', link);
    await assert.rejects(readCandlesFile(link), (e: unknown) => e instanceof UnreadableFileError && /not a regular file \(a character device\)$/.test(e.message), name);
  }
  await assert.rejects(readUserFile('/dev/urandom'), UnreadableFileError);
});

test('a directory is EISDIR and a missing file ENOENT, as file system errors', async () => {
  await assert.rejects(readCandlesFile(dir), { code: 'EISDIR' });
  await assert.rejects(readCandlesFile(join(dir, 'missing.csv')), { code: 'ENOENT' });
});

test('a pipe of good candles reads like the file it carries (process substitution, a piped stdin)', async () => {
  const path = fifo('candles.csv');
  const bytes = readFileSync(official);
  const [fromPipe] = await Promise.all([readCandlesFile(path), onceWriter(path, bytes)]);
  const fromFile = await readCandlesFile(official);
  assert.equal(fromPipe.candles.length, fromFile.candles.length);
  assert.deepEqual(fromPipe.candles.close, fromFile.candles.close);
  assert.deepEqual(fromPipe.candles.time, fromFile.candles.time);
});

test('a pipe that never sends a line break stops at 1 MiB with line_too_long, and the writer is let go', async () => {
  const path = fifo('endless-zeros.csv');
  const [error, written] = await Promise.all([
    readCandlesFile(path).then(() => assert.fail('a pipe of zeros loaded'), (e: unknown) => e),
    endlessWriter(path, Buffer.alloc(64 * 1024)),
  ]);
  assert.ok(error instanceof CandleFileError, String(error));
  assert.deepEqual(error.problems.map((p) => [p.code, p.line, p.message]), [['line_too_long', 1, 'line 1: more than 1 MiB without a line break']]);
  assert.ok(written < 16 * MAX_CSV_LINE_BYTES, `the reader stopped taking bytes: ${written} written`);
});

test('a CR-only file past 1 MiB is cr_line_ends, not a line without breaks', async () => {
  // The real M15 file (1.4 MB) with its line ends turned into a lone CR, as classic Mac OS wrote them.
  const path = join(dir, 'EURUSD_M15_cr.csv');
  writeFileSync(path, readFileSync(join(official, '..', '..', 'smc', 'EURUSD_15M.csv'), 'latin1').replace(/\r?\n/g, '\r'), 'latin1');
  const error = await readCandlesFile(path).then(() => assert.fail('a CR-only file loaded'), (e: unknown) => e);
  assert.ok(error instanceof CandleFileError, String(error));
  assert.deepEqual(error.problems.map((p) => [p.code, p.line, p.message]), [['cr_line_ends', 1, 'line 1: the lines end with a carriage return alone (CR, as on classic Mac OS), not LF or CRLF']]);
});

test('a pipe read whole stops at its limit', async () => {
  const path = fifo('big.json');
  const [error] = await Promise.all([
    readUserFile(path, 1 << 20).then(() => assert.fail('read past the limit'), (e: unknown) => e),
    endlessWriter(path, Buffer.alloc(64 * 1024, 0x20)),
  ]);
  assert.ok(error instanceof UnreadableFileError, String(error));
  assert.equal(error.message, `cannot read ${path}: larger than 1 MiB, the most this file is read as`);
  const small = fifo('small.json');
  const [bytes] = await Promise.all([readUserFile(small, 1 << 20), onceWriter(small, Buffer.from('[1,2,3]'))]);
  assert.equal(bytes.toString(), '[1,2,3]');
});

test('a regular file is read whole, and refused past the limit before reading', async () => {
  const path = join(dir, 'plan.json');
  await onceWriter(path, Buffer.from('{"a":1}'));
  assert.equal((await readUserFile(path)).toString(), '{"a":1}');
  await assert.rejects(readUserFile(path, 3), /larger than 3 bytes, the most this file is read as$/);
});

test('a JSON candle file past 128 MiB is refused before it is read or parsed, naming the file, the limit and CSV', async () => {
  assert.equal(MAX_JSON_CANDLE_BYTES, 128 << 20);
  const why = (path: string) => `cannot read ${path}: larger than 128 MiB, the most a JSON candle file is read as: JSON is parsed whole; save the candles as .csv, which bt reads in pieces without this limit`;
  // Sparse files: one byte past the limit costs no disk.
  const big = join(dir, 'BTC_USDT-1m.json');
  writeFileSync(big, '[');
  truncateSync(big, MAX_JSON_CANDLE_BYTES + 1);
  await assert.rejects(readCandlesFile(big), (e: unknown) => e instanceof UnreadableFileError && e.message === why(big));
  // An unknown extension whose bytes are a JSON array is parsed whole too: the same bound.
  const sniffed = join(dir, 'candles.dat');
  writeFileSync(sniffed, ' [');
  truncateSync(sniffed, MAX_JSON_CANDLE_BYTES + 1);
  await assert.rejects(readCandlesFile(sniffed), (e: unknown) => e instanceof UnreadableFileError && e.message === why(sniffed));
  rmSync(sniffed);
  // At the limit it is read (and here refused as JSON for what it holds, not for its size).
  truncateSync(big, MAX_JSON_CANDLE_BYTES);
  await assert.rejects(readCandlesFile(big), (e: unknown) => e instanceof CandleFileError);
  rmSync(big);
  // A pipe is counted as it is read.
  const pipe = fifo('pipe.json');
  const [error] = await Promise.all([
    readCandlesFile(pipe).then(() => assert.fail('read past the limit'), (e: unknown) => e),
    endlessWriter(pipe, Buffer.alloc(1 << 20, 0x20)),
  ]);
  assert.ok(error instanceof UnreadableFileError && error.message === why(pipe), String(error));
});

test('a workbook bomb is refused while inflating, before exceljs reads it whole', async () => {
  // 5,000,001 empty rows: 55 MB of XML that deflates to a few hundred kilobytes.
  const rows = WORKBOOK_FILE_BUDGET.maxRows + 1;
  const row = new TextEncoder().encode('<row></row>');
  const sheet = new Uint8Array(row.length * rows);
  for (let i = 0; i < rows; i++) sheet.set(row, i * row.length);
  const bytes = await zipParts([{ name: 'xl/worksheets/sheet1.xml', data: sheet }], new Date(0));
  assert.ok(bytes.length < 2 << 20, `${bytes.length} bytes on disk`);
  const path = join(dir, 'bomb.xlsx');
  writeFileSync(path, bytes);
  const refused = `cannot read ${path}: a workbook of more than 5,000,000 rows`;
  await assert.rejects(checkWorkbookFile(path, bytes), (e: unknown) => e instanceof UnreadableFileError && e.message === refused);
  await assert.rejects(readCandlesFile(path), (e: unknown) => e instanceof UnreadableFileError && e.message === refused);
  // Bytes that are not a zip pass the check: the workbook reader says what they are.
  await checkWorkbookFile(path, new TextEncoder().encode('Datetime,Open'));
});
