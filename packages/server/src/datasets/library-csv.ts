import { CandleFileError, candlesToIpc, readCandlesCsv, type CandleProblem } from '@bt/core/candles';
import { parseTimeframe } from '@bt/core/catalogue';

/** A month CSV of the library that a reindex reads, because its Arrow copy is missing or stale. */
export interface LibraryCsvTask {
  bytes: Uint8Array;
  symbol: string;
  timeframe: string;
  /** Its library path, as problems name it. */
  file: string;
}

/**
 * The month's Arrow copy and the facts its index row needs, or why the CSV does not read (a
 * candle problem, or another error's message), with who read it: 0 for the server's event loop,
 * else the parse process's pid (uploads/parse-pool.ts).
 */
export type LibraryCsvResult =
  | { ok: true; ipc: Uint8Array; rows: number; first: number; last: number; reader: number }
  | { ok: false; problems: CandleProblem[]; omitted: number; file?: string; reader: number }
  | { ok: false; message: string; reader: number };

/** What reads those CSVs: the parse pool's processes (uploads/parse-pool.ts), or this thread. */
export interface LibraryCsvReader {
  libraryCsv(task: LibraryCsvTask): Promise<LibraryCsvResult>;
}

/**
 * Core's CSV reader and the Arrow copy, as the reindex did them on the event loop: tens of
 * milliseconds per month, thousands of months in a library. Runs in a parse process
 * (uploads/parse-process.ts), which names itself as the `reader`.
 */
export function readLibraryCsv(task: LibraryCsvTask, reader = 0): LibraryCsvResult {
  try {
    const candles = readCandlesCsv(task.bytes, { symbol: task.symbol, timeframe: task.timeframe, file: task.file }).candles;
    const ipc = candlesToIpc({ ...candles, symbol: task.symbol, timeframe: parseTimeframe(task.timeframe) });
    return { ok: true, ipc, rows: candles.length, first: candles.time[0], last: candles.time[candles.length - 1], reader };
  } catch (err) {
    if (err instanceof CandleFileError) return { ok: false, problems: [...err.problems], omitted: err.omitted, file: err.file, reader };
    return { ok: false, message: String((err as Error)?.message ?? err), reader };
  }
}

/** Reads on this thread (a store without a parse pool: the start's bootstrap, tools). */
export const IN_PROCESS_CSV_READER: LibraryCsvReader = { libraryCsv: async (task) => readLibraryCsv(task) };

/** The result's facts, or the error the reader threw, rebuilt (so a reindex reports the same sentence). */
export function libraryCsvFacts(result: LibraryCsvResult): { ipc: Uint8Array; rows: number; first: number; last: number } {
  if (result.ok) return result;
  if ('problems' in result) throw new CandleFileError(result.problems, result.omitted, result.file);
  throw new Error(result.message);
}
