import { Queue, QueueEvents, Worker, type Processor, type WorkerOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { deleteKeys, SHARED_REDIS } from './redis.js';

export interface LocalQueue {
  queue: Queue;
  events: QueueEvents;
  worker: Worker;
  /** Closes the three, deletes the prefix's keys and ends the connections. */
  close(): Promise<void>;
}

/**
 * A queue, its events and one in-process worker on the shared Redis under the test's own prefix.
 * BullMQ leaves the connections it is given open when it closes: `close` ends them, or the test
 * file never exits.
 */
export async function startLocalQueue(name: string, prefix: string, processor: Processor, workerOptions: Partial<WorkerOptions> = {}): Promise<LocalQueue> {
  const connections: Redis[] = [];
  const connection = (maxRetriesPerRequest: number | null) => {
    const redis = new Redis(SHARED_REDIS, { maxRetriesPerRequest });
    connections.push(redis);
    return redis;
  };
  const queue = new Queue(name, { connection: connection(1), prefix });
  const events = new QueueEvents(name, { connection: connection(null), prefix });
  await events.waitUntilReady();
  const worker = new Worker(name, processor, { ...workerOptions, connection: connection(null), prefix });
  return {
    queue,
    events,
    worker,
    async close() {
      await worker.close();
      await events.close();
      await queue.close();
      await deleteKeys(SHARED_REDIS, `${prefix}:*`);
      for (const redis of connections) redis.disconnect();
    },
  };
}
