import { UnrecoverableError } from 'bullmq';
import { cutExtraction } from '../csvs/extraction.js';
import type { DatasetStore } from '../datasets/store.js';
import type { Storage } from '../storage/types.js';
import type { EnginePool } from './pool.js';
import type { ExtractionJobData, ExtractionJobResult } from './queue.js';

/**
 * A bt-worker's side of an extraction (docs/queue.md): the range's candles from this worker's own
 * library, the CSV formatted on its engine threads, the file written to the shared storage. The
 * charge is the API's, once this answer says the file exists; so a job nobody waits for any more
 * (past its deadline) writes nothing: the API has answered 503 and charged nothing.
 */
export async function processExtraction(deps: { datasets: DatasetStore; storage: Storage; pool: EnginePool }, data: ExtractionJobData, holdMs = 0): Promise<ExtractionJobResult> {
  if (Date.now() > data.deadline) throw new UnrecoverableError('expired before a worker took it');
  const cut = await cutExtraction(deps.datasets, deps.pool, data);
  if (!cut) return { empty: true };
  if (holdMs) await new Promise((r) => setTimeout(r, holdMs));
  if (Date.now() > data.deadline) throw new UnrecoverableError('expired before its file was written');
  await deps.storage.write(data.storagePath, cut.csv);
  return { rows: cut.rows, bytes: cut.csv.byteLength };
}
