import { CandleFileError } from '@bt/core/candles';
import { candleFileHttpError } from '../backtests/candle-messages.js';
import { ParseAborted } from '../uploads/parse-pool.js';

/**
 * Why a library file was left out of a reindex, in French for the console (docs/admin.md,
 * "Reindex"): a candle problem with its line and column, as an upload's; it was core's English.
 */
export function reindexFailure(err: unknown): string {
  if (err instanceof CandleFileError) return candleFileHttpError(err, 'csv').message.slice(0, 300);
  if (err instanceof Error && err.message === 'no candle') return 'Fichier sans bougie.';
  // Read in a parse process (datasets/library-csv.ts), under the uploads' caps.
  if (err instanceof ParseAborted) return err.reason === 'memory' ? 'Fichier illisible (trop lourd : mémoire de lecture dépassée).' : 'Fichier illisible (lecture trop longue : délai dépassé).';
  const code = (err as NodeJS.ErrnoException)?.code;
  return `Fichier illisible (${code ?? String((err as Error)?.message ?? err).slice(0, 200)}).`;
}
