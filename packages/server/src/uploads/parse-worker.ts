import { readLibraryCsv, type LibraryCsvTask } from '../datasets/library-csv.js';
import { readCandleTask, type CandleTask } from './candle-task.js';

/** The parse pool's worker entry (piscina calls the default export with each task). */
export default function parse(task: CandleTask) {
  return readCandleTask(task);
}

/** A library month CSV for a reindex (datasets/library-csv.ts): piscina calls it by this name. */
export function libraryCsv(task: LibraryCsvTask) {
  return readLibraryCsv(task);
}
