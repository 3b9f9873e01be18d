import { ParamError } from '@bt/core/params';
import { paramErrorShape, runEngineOnColumns, type CandleColumnsCopy, type EngineOutput, type EngineRequest, type ParamErrorShape } from './task.js';

export type ThreadAnswer = { output: EngineOutput } | { paramError: ParamErrorShape };

/**
 * The engine pool's worker entry (piscina calls the default export with each task). A parameter
 * the engine refuses comes back as data: an error's class does not cross a thread, and the API
 * answers it with a 400 (any other error stays an error).
 */
export default async function run(task: { columns: CandleColumnsCopy; request: EngineRequest }): Promise<ThreadAnswer> {
  try {
    return { output: await runEngineOnColumns(task.columns, task.request) };
  } catch (err) {
    if (err instanceof ParamError) return { paramError: paramErrorShape(err) };
    throw err;
  }
}
