// A batch worker thread: reads each data file once (kept for later runs), runs the tasks the main
// thread sends one at a time through core's runBacktest, and answers with a RunRow.
import { onTempFile, writeFileWhole } from '@bt/core/node';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { runBacktest } from '@bt/core/backtest';
import { pipSize } from '@bt/core/catalogue';
import { loadCandles, type LoadedData } from '../data.js';
import { makeDirectory } from '../paths.js';
import type { DataSpec, RunTask } from './plan.js';
import { failedRow, okRow, type RunRow } from './run-row.js';

export interface WorkerInput {
  readonly data: readonly DataSpec[];
  readonly out?: string;
}

export type WorkerMessage = { type: 'run'; task: RunTask } | { type: 'stop' };
/** `temp`: a workbook's temporary file started or ended, so the main thread can remove it if bt is interrupted (src/interrupt.ts). */
export type WorkerReply = { type: 'done'; row: RunRow } | { type: 'temp'; path: string; writing: boolean };

const input = workerData as WorkerInput;
const loaded = new Map<number, Promise<LoadedData>>();

/**
 * How many data files a worker keeps read, the most recently used: the main thread hands it the
 * runs of the files it holds first (pool.ts keeps the same rule), so a file is rarely read twice.
 * Keeping every file grew without bound: a plan over 300 files of 24,000 candles took 780 MB, a
 * library of M1 files would take gigabytes per worker.
 */
export const KEPT_DATA_FILES = 2;

function dataOf(index: number): Promise<LoadedData> {
  let entry = loaded.get(index);
  if (entry) loaded.delete(index);
  else {
    const spec = input.data[index];
    entry = loadCandles(spec.path, spec.read, spec.symbol);
  }
  loaded.set(index, entry);
  while (loaded.size > KEPT_DATA_FILES) loaded.delete(loaded.keys().next().value!);
  return entry;
}

export async function runTask(task: RunTask): Promise<RunRow> {
  const spec = input.data[task.data];
  const base = { id: task.id, data: spec.label, strategy: task.strategy, grid: task.params, sl_mode: task.slMode };
  try {
    const data = await dataOf(task.data);
    if (!data.symbol) throw new Error(`cannot tell the symbol of ${spec.label}: give "symbol" in the plan`);
    const pip = pipSize(data.symbol, spec.pipSize);
    const result = await runBacktest(
      data.file.candles,
      {
        strategy: task.strategy, params: task.params, unknownParams: 'error',
        slMode: task.slMode, slPips: task.slPips, tp1Pips: task.tp1Pips, tp2Pips: task.tp2Pips,
        from: spec.from, to: spec.to, symbol: data.symbol, timeframe: data.timeframe, pipSize: pip,
        run: { runId: String(task.id) },
      },
      { workbook: input.out !== undefined },
    );
    let workbook: string | null = null;
    if (input.out !== undefined && result.workbook) {
      // Runs of one grid share a folder name (it carries no parameters): the run number keeps them apart.
      const folder = `${result.folder}_r${task.id}`;
      await makeDirectory(join(input.out, folder));
      workbook = join(input.out, folder, `${folder}.xlsx`);
      await writeFileWhole(workbook, result.workbook);
    }
    return okRow(base, result, { loadMs: data.loadMs, workbook });
  } catch (error) {
    return failedRow(base, (error as Error).message);
  }
}

onTempFile((path, writing) => parentPort?.postMessage({ type: 'temp', path, writing } satisfies WorkerReply));

parentPort?.on('message', async (message: WorkerMessage) => {
  if (message.type === 'stop') {
    parentPort!.close();
    return;
  }
  const row = await runTask(message.task);
  parentPort!.postMessage({ type: 'done', row } satisfies WorkerReply);
});
