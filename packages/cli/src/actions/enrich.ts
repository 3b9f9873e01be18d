// `bt enrich FILE -o OUT`: core's indicator columns (withIndicators) written by core's writers.
import { withIndicators } from '@bt/core/indicators';
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

function periods(flag: string, text: string | false): number[] {
  if (text === false) return [];
  const list = String(text).split(',').map((p) => p.trim()).filter((p) => p !== '');
  if (list.length === 0) throw new UsageError(`invalid ${flag}: ${JSON.stringify(text)} (expected periods such as 14 or 50,200)`);
  return list.map((p) => {
    if (!/^\d+$/.test(p) || Number(p) < 1 || Number(p) > 100_000) throw new UsageError(`invalid ${flag}: ${JSON.stringify(text)} (expected whole periods ≥ 1, comma-separated)`);
    return Number(p);
  });
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
