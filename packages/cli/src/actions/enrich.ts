// `bt enrich FILE -o OUT`: core's indicator columns (withIndicators) written by core's writers.
import { withIndicators } from '@bt/core/indicators';
import { showValue } from '@bt/core/params';
import { writeCandlesFile } from '@bt/core/node';
import { loadData } from '../data.js';
import { RunError, UsageError } from '../errors.js';
import { count, print, warn } from '../output.js';
import { checkWritable, checkXlsxSize, refuseInputAsOutput } from '../paths.js';

/** The flags of the command (commands/enrich.ts declares them). */
export interface EnrichFlags {
  output: string;
  rsi: string | false;
  ema: string | false;
  format?: string;
  utcOffset?: string;
  duplicates?: string;
}

/**
 * The most periods one flag takes. Each period is a Float64 column over every candle, computed
 * and written: `--ema 1,2,...,9999` (any length fits in an argument) asked for thousands of
 * columns, gigabytes on a year of M1 candles. The strategies read RSI_14, EMA_50 and EMA_200.
 */
export const MAX_PERIODS = 16;

/** The longest period: past the candles a column is empty (NaN), so a larger one says nothing more. */
export const MAX_PERIOD = 100_000;

/**
 * What the added columns may take together (8 bytes a candle each), checked with the candle count
 * once the file is read and before any column is computed: 2 GiB is 32 columns over 8.3 million
 * candles, or the 3 default ones over 89 million.
 */
export const MAX_ADDED_BYTES = 2 * 2 ** 30;

export function periods(flag: string, text: string | false): number[] {
  if (text === false) return [];
  const list = String(text).split(',').map((p) => p.trim()).filter((p) => p !== '');
  if (list.length === 0) throw new UsageError(`invalid ${flag}: ${showValue(text)} (expected periods such as 14 or 50,200)`);
  if (list.length > MAX_PERIODS) throw new UsageError(`invalid ${flag}: ${count(list.length)} periods (expected at most ${MAX_PERIODS}: each is a column over every candle)`);
  return list.map((p) => {
    if (!/^\d+$/.test(p) || Number(p) < 1 || Number(p) > MAX_PERIOD) throw new UsageError(`invalid ${flag}: ${showValue(text)} (expected whole periods from 1 to ${count(MAX_PERIOD)}, comma-separated)`);
    return Number(p);
  });
}

/** The columns to add must fit in MAX_ADDED_BYTES over this many candles (a usage error naming the flags). */
export function checkAddedSize(added: readonly string[], candles: number): void {
  const bytes = added.length * candles * 8;
  if (bytes <= MAX_ADDED_BYTES) return;
  const gb = (n: number) => `${(n / 2 ** 30).toFixed(1)} GB`;
  const fit = Math.floor(MAX_ADDED_BYTES / (candles * 8));
  throw new UsageError(`invalid --rsi/--ema: ${added.length} columns over ${count(candles)} candles take about ${gb(bytes)}, more than the ${gb(MAX_ADDED_BYTES)} bt adds in one run (${fit === 0 ? 'not one fits' : `at most ${fit} fit`}): give fewer periods, or enrich the file in parts`);
}

export async function enrichCommand(file: string, flags: EnrichFlags): Promise<void> {
  const names = [...new Set([...periods('--rsi', flags.rsi).map((n) => `RSI_${n}`), ...periods('--ema', flags.ema).map((n) => `EMA_${n}`)])];
  if (names.length === 0) throw new UsageError('nothing to add: give --rsi or --ema periods (or drop --no-rsi / --no-ema)');
  if (!/\.(csv|txt|xlsx|arrow|ipc|feather|arrows|json)$/i.test(flags.output)) {
    throw new UsageError(`invalid --output: ${JSON.stringify(flags.output)} (expected a .csv, .xlsx, .arrow, .ipc, .arrows or .json file)`);
  }
  // In place would replace the file with what bt read of it (a text column dropped, the symbol row gone).
  await refuseInputAsOutput('--output', flags.output, [file]);
  await checkWritable(flags.output);
  const data = await loadData(file, flags);
  for (const w of data.warnings) warn(w);
  const kept = names.filter((n) => Object.hasOwn(data.file.candles.extra, n));
  checkAddedSize(names.filter((n) => !kept.includes(n)), data.file.candles.length);
  const enriched = withIndicators(data.file.candles, names);
  checkXlsxSize(flags.output, enriched.length);
  try {
    await writeCandlesFile(flags.output, enriched);
  } catch (error) {
    throw new RunError(`cannot write ${flags.output}: ${(error as Error).message}`);
  }
  const added = names.filter((n) => !kept.includes(n));
  print(`${flags.output}: ${count(enriched.length)} candles${added.length ? `, added ${added.join(', ')}` : ''}${kept.length ? `; kept the file's own ${kept.join(', ')}` : ''}`);
}
