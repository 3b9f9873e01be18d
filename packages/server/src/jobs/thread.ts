import { ParamError } from '@bt/core/params';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { monthFilesOf, type MonthFile, type MonthFilesTask } from '../datasets/month-files.js';
import { workbookText, type WorkbookText } from '../results/workbook-text.js';
import { csvOfColumns, paramErrorShape, runEngineOnColumns, type CandleColumnsCopy, type EngineOutput, type EngineRequest, type ParamErrorShape } from './task.js';

/**
 * What the pool hands a thread: a backtest (engine + workbook), an extraction's CSV to format,
 * the library's month files of an import (CSV + IPC + checksum, src/datasets/month-files.ts), or
 * a result's workbook to parse (src/results/workbook-text.ts).
 */
export type ThreadTask =
  | { kind: 'backtest'; columns: CandleColumnsCopy; request: EngineRequest }
  | { kind: 'csv'; columns: CandleColumnsCopy }
  | ({ kind: 'month-files' } & MonthFilesTask)
  | { kind: 'workbook'; bytes: Uint8Array };

export type ThreadAnswer = { output: EngineOutput } | { paramError: ParamErrorShape };

/**
 * The engine pool's worker entry (piscina calls the default export with each task). A parameter
 * the engine refuses comes back as data: an error's class does not cross a thread, and the API
 * answers it with a 400 (any other error stays an error). A CSV comes back as its bytes, moved
 * (transferred, not copied: up to tens of MB for a year of M5), and so do month files' bytes.
 */
export default async function run(task: ThreadTask): Promise<ThreadAnswer | Uint8Array | MonthFile[] | WorkbookText> {
  if (task.kind === 'workbook') return workbookText(task.bytes);
  if (task.kind === 'csv') return move(csvOfColumns(task.columns)) as Uint8Array;
  if (task.kind === 'month-files') {
    const files = monthFilesOf(task);
    const buffers = new Set(files.flatMap((f) => [f.csv.buffer, f.ipc.buffer]));
    return move({ [transferableSymbol]: [...buffers], [valueSymbol]: files } as never) as unknown as MonthFile[];
  }
  try {
    return { output: await runEngineOnColumns(task.columns, task.request) };
  } catch (err) {
    if (err instanceof ParamError) return { paramError: paramErrorShape(err) };
    throw err;
  }
}
