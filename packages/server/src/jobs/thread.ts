import { runEngineOnColumns, type CandleColumnsCopy, type EngineRequest } from './task.js';

/** The engine pool's worker entry (piscina calls the default export with each task). */
export default function run(task: { columns: CandleColumnsCopy; request: EngineRequest }) {
  return runEngineOnColumns(task.columns, task.request);
}
