/**
 * A parse process's entry (uploads/parse-pool.ts): reads the tasks the server sends over the IPC
 * channel, one at a time, and answers each with its result. Its heap is capped by the pool
 * (`--max-old-space-size`): a file that needs more ends this process, never the server.
 */
import process from 'node:process';
import { readLibraryCsv, type LibraryCsvTask } from '../datasets/library-csv.js';
import { readCandleTask, type CandleTask } from './candle-task.js';

export type ParseRequest = { id: number; name: 'candles'; task: CandleTask } | { id: number; name: 'libraryCsv'; task: LibraryCsvTask };
export type ParseReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; message: string };

process.on('message', (request: ParseRequest) => {
  void (async () => {
    let reply: ParseReply;
    try {
      const result = request.name === 'libraryCsv' ? readLibraryCsv(request.task, process.pid) : await readCandleTask(request.task);
      reply = { id: request.id, ok: true, result };
    } catch (err) {
      reply = { id: request.id, ok: false, message: String((err as Error)?.message ?? err).slice(0, 300) };
    }
    process.send!(reply);
  })();
});
// The server's end of the channel closed (it stopped or crashed): nothing is left to read for.
process.on('disconnect', () => process.exit(0));
