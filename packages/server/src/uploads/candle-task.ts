import { candlesToIpc, CandleFileError, detectCandleContainer, readCandles, type CandleProblem } from '@bt/core/candles';
import type { TimeframeKey } from '@bt/core/catalogue';
import { checkXlsx, XlsxTooManyRows, ZipRefusal } from '@bt/core/node';

/** What the upload route asks a parse process to read. */
export interface CandleTask {
  bytes: Uint8Array;
  kind: 'csv' | 'xlsx';
  filename: string;
  symbol: string;
  timeframe?: TimeframeKey;
  xlsx: { maxInflatedBytes: number; maxRows: number };
}

/** The answer: the candles as Arrow IPC (one transferable buffer), or why the file was refused. */
export type CandleTaskResult =
  | { ok: true; ipc: Uint8Array; timeframe: TimeframeKey | undefined }
  | { ok: false; reason: 'problems'; problems: CandleProblem[]; omitted: number; file?: string }
  | { ok: false; reason: 'container'; found: string }
  | { ok: false; reason: 'not_zip' | 'xlsx_too_large' | 'xlsx_too_many_rows' }
  | { ok: false; reason: 'failed'; detail: string };

/**
 * What the bytes hold, told more finely than the readers need: a zip that is not a workbook (a
 * zipped CSV) and a gzip file, which the users who compress their exports send. A zipped CSV
 * was told to be renamed .xlsx, and a gzipped one that it 'looks like UTF-16'.
 */
function containerOf(bytes: Uint8Array): string {
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return 'gzip';
  const container = detectCandleContainer(bytes);
  // Entry names are stored as they are: a workbook names its content types and its xl/ parts.
  if (container !== 'xlsx') return container;
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return view.includes('[Content_Types].xml') && view.includes('xl/') ? 'xlsx' : 'zip';
}

/**
 * Reads an uploaded candle file; runs inside a parse process (uploads/parse-pool.ts), so a slow or
 * huge file never holds the server's event loop and a file that exhausts memory only ends its
 * process. The file's content must match its extension: a .csv that is really a zip, an Arrow or
 * a JSON file is refused before any reader sees it.
 */
export async function readCandleTask(task: CandleTask): Promise<CandleTaskResult> {
  try {
    return await readTask(task);
  } catch (err) {
    // Anything else the readers throw is their defect, but the file caused it: the upload gets
    // a 4xx saying the file could not be read (and the server log the reason), never a 500, and
    // an import's other entries go on.
    return { ok: false, reason: 'failed', detail: String((err as Error)?.message ?? err).slice(0, 300) };
  }
}

async function readTask(task: CandleTask): Promise<CandleTaskResult> {
  const container = containerOf(task.bytes);
  if (container !== task.kind) return { ok: false, reason: 'container', found: container };
  if (task.kind === 'xlsx') {
    try {
      await checkXlsx(task.bytes, task.xlsx);
    } catch (err) {
      if (err instanceof XlsxTooManyRows) return { ok: false, reason: 'xlsx_too_many_rows' };
      if (err instanceof ZipRefusal) return { ok: false, reason: err.code === 'not_zip' ? 'not_zip' : 'xlsx_too_large' };
      throw err;
    }
  }
  try {
    const loaded = await readCandles(task.bytes, { symbol: task.symbol, timeframe: task.timeframe, file: task.filename });
    return { ok: true, ipc: candlesToIpc(loaded.candles), timeframe: loaded.timeframe };
  } catch (err) {
    if (err instanceof CandleFileError) return { ok: false, reason: 'problems', problems: [...err.problems], omitted: err.omitted, file: err.file };
    throw err;
  }
}
