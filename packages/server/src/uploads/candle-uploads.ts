import { readCandlesIpc, type Candles } from '@bt/core/candles';
import { CandleFileError } from '@bt/core/candles';
import type { TimeframeKey } from '@bt/core/catalogue';
import { HttpError, badRequest } from '../app/errors.js';
import type { LibraryCsvReader, LibraryCsvResult, LibraryCsvTask } from '../datasets/library-csv.js';
import type { UploadedFile } from '../app/multipart.js';
import { Semaphore } from '../app/semaphore.js';
import { candleFileHttpError } from '../backtests/candle-messages.js';
import type { UploadLimits } from './limits.js';
import { UPLOAD_LIMIT_MESSAGES } from './messages.js';
import { ownBytes } from '../jobs/task.js';
import { CandleParsePool, ParseAborted } from './parse-pool.js';

/**
 * The custom-data upload path, bounded before any work (docs/security.md, "Uploads"): at most
 * `concurrency` uploads are read and parsed at once, each body only read once its slot is free,
 * at most `maxQueue` wait (503 past it), and parsing happens in worker threads with a capped heap
 * and a time limit, the .xlsx checked while inflating before a spreadsheet reader sees it.
 */
export class CandleUploads implements LibraryCsvReader {
  private readonly gate: Semaphore;
  private readonly pool: CandleParsePool;
  /** Files handed to a parse process since start (tests check that refused requests parse nothing). */
  parsesStarted = 0;

  constructor(
    readonly limits: UploadLimits,
    private readonly log: (message: string) => void = () => {},
  ) {
    this.gate = new Semaphore(limits.concurrency, limits.maxQueue);
    this.pool = new CandleParsePool(limits);
  }

  /** Runs the read and parse of one upload in a slot; 503 when too many already wait. */
  async inSlot<T>(fn: () => Promise<T>): Promise<T> {
    const done = await this.gate.tryUse(fn);
    if (!done) throw new HttpError(503, UPLOAD_LIMIT_MESSAGES.busy, { 'Retry-After': '5' });
    return done.value;
  }

  /** The file's candles, or a 4xx saying what is wrong with it (never a 500 for a bad file). */
  async readCandles(file: UploadedFile, kind: 'csv' | 'xlsx', symbol: string, timeframe: TimeframeKey | undefined): Promise<{ candles: Candles; timeframe: TimeframeKey | undefined }> {
    // A view is sent with its whole buffer (structured clone): send a buffer of its own.
    const bytes = ownBytes(file.bytes);
    let result;
    this.parsesStarted++;
    try {
      result = await this.pool.parse({
        bytes,
        kind,
        filename: file.filename,
        symbol,
        timeframe,
        xlsx: { maxInflatedBytes: this.limits.xlsxMaxInflatedBytes, maxRows: this.limits.xlsxMaxRows },
      });
    } catch (err) {
      if (err instanceof ParseAborted) {
        throw new HttpError(413, err.reason === 'memory' ? UPLOAD_LIMIT_MESSAGES.parseMemory : UPLOAD_LIMIT_MESSAGES.parseTimeout(Math.round(this.limits.parseTimeoutMs / 1000)));
      }
      throw err;
    }
    if (result.ok) {
      const loaded = readCandlesIpc(result.ipc, { symbol, validate: false });
      return { candles: loaded.candles, timeframe: result.timeframe };
    }
    switch (result.reason) {
      case 'problems':
        throw candleFileHttpError(new CandleFileError(result.problems, result.omitted, result.file), kind);
      case 'container':
        throw badRequest(UPLOAD_LIMIT_MESSAGES.containerMismatch(kind, result.found));
      case 'not_zip':
        throw badRequest(UPLOAD_LIMIT_MESSAGES.xlsxBroken);
      case 'xlsx_too_large':
        throw new HttpError(413, UPLOAD_LIMIT_MESSAGES.xlsxTooLarge(this.limits.xlsxMaxInflatedBytes));
      case 'xlsx_too_many_rows':
        throw new HttpError(413, UPLOAD_LIMIT_MESSAGES.xlsxTooManyRows(this.limits.xlsxMaxRows));
      case 'failed':
        this.log(`upload: the candle reader failed on ${JSON.stringify(file.filename.slice(0, 120))}: ${result.detail}`);
        throw new HttpError(422, UPLOAD_LIMIT_MESSAGES.readerFailed(kind));
    }
  }

  /** A reindex's library CSV, read in a parse process (datasets/library-csv.ts). */
  libraryCsv(task: LibraryCsvTask): Promise<LibraryCsvResult> {
    return this.pool.libraryCsv(task);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
