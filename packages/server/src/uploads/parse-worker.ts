import { readCandleTask, type CandleTask } from './candle-task.js';

/** The parse pool's worker entry (piscina calls the default export with each task). */
export default function parse(task: CandleTask) {
  return readCandleTask(task);
}
