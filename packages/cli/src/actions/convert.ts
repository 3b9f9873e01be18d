// `bt convert IN OUT`: core's readers and writers; the format follows each file's extension.
import { writeCandlesFile } from '@bt/core/node';
import { loadData } from '../data.js';
import { RunError, UsageError } from '../errors.js';
import { count, print, warn } from '../output.js';
import { checkWritable, checkXlsxSize, refuseInputAsOutput } from '../paths.js';

/** The flags of the command (commands/convert.ts declares them). */
export interface ConvertFlags {
  symbol?: string;
  timeframe?: string;
  dates?: 'text' | 'excel';
  format?: string;
  utcOffset?: string;
  duplicates?: string;
}

export async function convertCommand(input: string, output: string, flags: ConvertFlags): Promise<void> {
  if (!/\.(csv|txt|xlsx|arrow|ipc|feather|arrows|json)$/i.test(output)) {
    throw new UsageError(`invalid <out>: ${JSON.stringify(output)} (expected a .csv, .xlsx, .arrow, .ipc, .feather, .arrows or .json file)`);
  }
  await refuseInputAsOutput('<out>', output, [input]);
  await checkWritable(output);
  const data = await loadData(input, flags);
  for (const w of data.warnings) warn(w);
  let candles = data.file.candles;
  // The symbol travels in Arrow metadata; keep what the CLI resolved (flag, data or file name).
  if (data.symbol && candles.symbol !== data.symbol) candles = { ...candles, symbol: data.symbol };
  if (data.timeframe && !candles.timeframe) candles = { ...candles, timeframe: data.timeframe };
  checkXlsxSize(output, candles.length);
  try {
    await writeCandlesFile(output, candles, { dates: flags.dates });
  } catch (error) {
    throw new RunError(`cannot write ${output}: ${(error as Error).message}`);
  }
  print(`${output}: ${count(candles.length)} candles${data.timeframe ? ` ${data.timeframe}` : ''}${data.symbol ? ` ${data.symbol}` : ''} (from ${data.file.format} ${input})`);
}
