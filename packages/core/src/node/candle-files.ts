// Candle files on disk, chosen by extension. CSV is read and written in pieces, so a big file is
// never in memory whole: only its Float64 columns are.
import { extname } from 'node:path';
import {
  candlesCsvChunks, candlesToIpc, detectCandleContainer, candlesToJson, candlesToXlsx, readCandles, readCandlesIpc,
  readCandlesJson, readCandlesXlsx, type CandleContainer, type CandleFile, type Candles, type ReadCandlesOptions, type WriteCsvOptions,
} from '../candles/index.js';
import { CsvCandleReader } from '../candles/csv-read.js';
import { openUserFile, readOpenedFile, readUserFile, UnreadableFileError, type OpenedFile } from './user-file.js';
import { checkXlsx, XlsxTooManyRows } from './xlsx-guard.js';
import { ZipRefusal } from './zip-guard.js';
import { writeFileWhole } from './write-file.js';

/** Piece size for reading CSV; pieces are cut after their last newline. */
const CHUNK_BYTES = 4 << 20;
/**
 * The longest line the reader waits for: a candle row is a few dozen bytes, and a file without
 * line breaks (a binary file, a pipe of zeros) would otherwise grow the buffer without end.
 */
export const MAX_CSV_LINE_BYTES = 1 << 20;

/** Streams a CSV file (or a pipe) through the incremental reader, one reused buffer, pieces cut at newlines. */
async function readCsvFile(path: string, options: ReadCandlesOptions): Promise<CandleFile> {
  const opened = await openUserFile(path);
  try {
    return await readCsvFrom(opened, options);
  } finally {
    await opened.file.close();
  }
}

/** readCsvFile on an opened file, from its current position (the caller closes it). */
async function readCsvFrom({ file, size }: OpenedFile, options: ReadCandlesOptions): Promise<CandleFile> {
  const reader = new CsvCandleReader(options, size ?? undefined);
  let buffer = new Uint8Array(size === null ? CHUNK_BYTES : Math.min(CHUNK_BYTES, size + 1));
  let carry = 0;
  for (;;) {
    if (carry >= MAX_CSV_LINE_BYTES) reader.lineTooLong(MAX_CSV_LINE_BYTES, buffer.subarray(0, carry));
    if (carry === buffer.length) {
      // A line longer than the buffer: grow it.
      const bigger = new Uint8Array(buffer.length * 2);
      bigger.set(buffer);
      buffer = bigger;
    }
    const { bytesRead } = await file.read(buffer, carry, buffer.length - carry, null);
    const filled = carry + bytesRead;
    if (bytesRead === 0) {
      reader.push(buffer.subarray(0, filled), true);
      return reader.finish();
    }
    const cut = buffer.lastIndexOf(10, filled - 1) + 1;
    if (cut === 0) {
      carry = filled;
      continue;
    }
    reader.push(buffer.subarray(0, cut));
    buffer.copyWithin(0, cut, filled);
    carry = filled - cut;
  }
}

/**
 * What a workbook read from a user's disk may inflate to, and its rows across sheets: a million
 * candles' sheet is about 150 MB of XML, and bt's own workbooks of 130,000 trades are smaller. A
 * zip bomb (4 MB inflating to 4 GB used to take the process down after a minute and a half) is
 * refused while inflating, before exceljs inflates it whole.
 */
export const WORKBOOK_FILE_BUDGET = { maxInflatedBytes: 1 << 30, maxRows: 5_000_000 };

/**
 * Checks a workbook's bytes against WORKBOOK_FILE_BUDGET (an UnreadableFileError naming `path`
 * when over it). Bytes that are not a zip pass: the workbook reader says what they are.
 */
export async function checkWorkbookFile(path: string, bytes: Uint8Array): Promise<void> {
  try {
    await checkXlsx(bytes, WORKBOOK_FILE_BUDGET);
  } catch (error) {
    if (error instanceof XlsxTooManyRows) throw new UnreadableFileError(path, `a workbook of more than ${WORKBOOK_FILE_BUDGET.maxRows.toLocaleString('en-US')} rows`);
    if (error instanceof ZipRefusal && error.code === 'not_zip') return;
    if (error instanceof ZipRefusal) throw new UnreadableFileError(path, `a workbook that inflates past ${WORKBOOK_FILE_BUDGET.maxInflatedBytes / 2 ** 30} GiB or holds more than 64 parts (refused while inflating)`);
    throw error;
  }
}

/**
 * The largest freqtrade JSON candle file read (128 MiB, about 2.3 million candles): JSON is parsed
 * whole, and a 55 MB file of a million candles took 400 MB of memory here (bytes, text, the parsed
 * arrays, then the columns), so the 2 GiB of other whole reads would have taken several GB. CSV
 * has no such bound (read in pieces; memory is its Float64 columns), hence the advice.
 */
export const MAX_JSON_CANDLE_BYTES = 128 << 20;
const JSON_LIMIT = { what: 'a JSON candle file', advice: 'JSON is parsed whole; save the candles as .csv, which bt reads in pieces without this limit' };

export type CandleFileKind = 'csv' | 'xlsx' | 'arrow' | 'arrow-stream' | 'json';

/** `.csv`/`.txt` CSV, `.xlsx`, `.arrow`/`.ipc`/`.feather` Arrow IPC file, `.arrows` Arrow IPC stream, `.json` freqtrade. */
export function candleFileKind(path: string): CandleFileKind | undefined {
  switch (extname(path).toLowerCase()) {
    case '.csv':
    case '.txt':
      return 'csv';
    case '.xlsx':
      return 'xlsx';
    case '.arrow':
    case '.ipc':
    case '.feather':
      return 'arrow';
    case '.arrows':
      return 'arrow-stream';
    case '.json':
      return 'json';
    default:
      return undefined;
  }
}

/** Reads and validates a candle file; the path is named in every error. Unknown extensions are sniffed. */
export async function readCandlesFile(path: string, options: ReadCandlesOptions & { validate?: boolean } = {}): Promise<CandleFile> {
  const { validate, ...readOptions } = options;
  const opts = { file: path, ...readOptions };
  const kind = candleFileKind(path);
  if (kind === 'csv') return readCsvFile(path, opts);
  if (kind !== undefined) {
    const container = kind === 'arrow-stream' ? 'arrow' : kind;
    return candlesOfBytes(path, container, await readUserFile(path, ...wholeLimit(container)), opts, validate);
  }
  return readSniffedFile(path, opts, validate);
}

/** The largest whole read of a container, and what the refusal says. */
const wholeLimit = (container: CandleContainer): [number | undefined, { what?: string; advice?: string }] => (container === 'json' ? [MAX_JSON_CANDLE_BYTES, JSON_LIMIT] : [undefined, {}]);

/** Bytes read whole as the container they hold, each with its guard (a workbook's before exceljs inflates it). */
async function candlesOfBytes(path: string, container: CandleContainer, bytes: Uint8Array, opts: ReadCandlesOptions, validate: boolean | undefined): Promise<CandleFile> {
  switch (container) {
    case 'xlsx':
      await checkWorkbookFile(path, bytes);
      return readCandlesXlsx(bytes, opts);
    case 'arrow':
      return readCandlesIpc(bytes, { ...opts, validate });
    case 'json':
      if (bytes.length > MAX_JSON_CANDLE_BYTES) throw new UnreadableFileError(path, `larger than ${MAX_JSON_CANDLE_BYTES >> 20} MiB, the most ${JSON_LIMIT.what} is read as: ${JSON_LIMIT.advice}`);
      return readCandlesJson(bytes, opts);
    default:
      return readCandles(bytes, opts);
  }
}

/**
 * A file of unknown extension: its first bytes (up to 1 MiB, for JSON after leading blanks) tell
 * the container, then it is read as the known extensions are: CSV in pieces, the others whole
 * with their bounds. It used to be read whole first (up to 2 GiB for a CSV that streams), and a
 * zip sniffed from those bytes went to exceljs without the workbook guard. A pipe cannot be read
 * twice: it is read whole, as before, then through the same guards.
 */
async function readSniffedFile(path: string, opts: ReadCandlesOptions, validate: boolean | undefined): Promise<CandleFile> {
  const opened = await openUserFile(path);
  try {
    if (opened.size === null) {
      const bytes = await readOpenedFile(opened, path);
      return await candlesOfBytes(path, detectCandleContainer(bytes), bytes, opts, validate);
    }
    // Positional reads: the file's own position stays at 0 for the reader that follows.
    const head = new Uint8Array(Math.min(opened.size, SNIFF_BYTES));
    let filled = 0;
    while (filled < head.length) {
      const { bytesRead } = await opened.file.read(head, filled, head.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    const container = detectCandleContainer(head.subarray(0, filled));
    if (container === 'csv') return await readCsvFrom(opened, opts);
    return await candlesOfBytes(path, container, await readOpenedFile(opened, path, ...wholeLimit(container)), opts, validate);
  } finally {
    await opened.file.close();
  }
}

/** The most of a file's start read to tell its container. */
const SNIFF_BYTES = MAX_CSV_LINE_BYTES;

export interface WriteCandlesFileOptions extends WriteCsvOptions {
  /** For .xlsx: `text` (default) or `excel` date cells. */
  dates?: 'text' | 'excel';
}

/** Writes candles in the format the extension names (.csv official CSV, .xlsx, .arrow/.ipc, .arrows, .json). */
export async function writeCandlesFile(path: string, candles: Candles, options: WriteCandlesFileOptions = {}): Promise<void> {
  const kind = candleFileKind(path);
  switch (kind) {
    case 'csv':
      return writeFileWhole(path, candlesCsvChunks(candles, options));
    case 'xlsx':
      return writeFileWhole(path, await candlesToXlsx(candles, { dates: options.dates }));
    case 'arrow':
      return writeFileWhole(path, candlesToIpc(candles, 'file'));
    case 'arrow-stream':
      return writeFileWhole(path, candlesToIpc(candles, 'stream'));
    case 'json':
      return writeFileWhole(path, candlesToJson(candles));
    default:
      throw new Error(`invalid path: ${JSON.stringify(path)} (expected a .csv, .xlsx, .arrow, .ipc, .arrows or .json file)`);
  }
}
