import type { EventEmitter } from 'node:events';
import type { Job, Queue, QueueEvents } from 'bullmq';

/** What a wait says when no end arrived in time (BullMQ's own wording, which callers match). */
export const timedOutMessage = (job: Job, ttl: number) => `Job wait ${job.name} timed out before finishing, no finish notification arrived after ${ttl}ms (id=${job.id})`;

/**
 * The job left the queue before any end (removed while it waited: its account deleted,
 * docs/queue.md "Failures"): nobody will run it, so the wait ends now rather than at its bound.
 */
export class JobRemovedError extends Error {
  constructor(job: Job) {
    super(`Job ${job.name} removed before finishing (id=${job.id})`);
    this.name = 'JobRemovedError';
  }
}

/**
 * Waits for a job's end as BullMQ's `job.waitUntilFinished` does (the `completed:<id>` and
 * `failed:<id>` events, the queue closing, a bound), with its first look at the job's state
 * made safe: BullMQ's reads it inside an async Promise executor, so a Redis that goes away at
 * that moment raised an unhandled rejection (which ends the process) instead of failing the wait.
 * Here such an error only skips that look: the events or the bound end the wait.
 */
export function waitForJob<T>(queue: Queue, events: QueueEvents, job: Job, ttl: number): Promise<T> {
  const id = job.id!;
  const completedEvent = `completed:${id}`;
  const failedEvent = `failed:${id}`;
  const removedEvent = `removed:${id}`;
  // Per-job event names and 'closing' are outside the typed listener maps: the plain emitters.
  const emitter = events as unknown as EventEmitter;
  const closing = queue as unknown as EventEmitter;
  // One 'closing' listener per request waiting on the queue: as many as requests in flight (20
  // and more under load), not a leak; past Node's default of 10 it printed a leak warning.
  if (closing.getMaxListeners() !== 0) closing.setMaxListeners(0);
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const stop = () => {
      settled = true;
      clearTimeout(timer);
      emitter.off(completedEvent, onCompleted);
      emitter.off(failedEvent, onFailed);
      emitter.off(removedEvent, onRemoved);
      closing.off('closing', onClosing);
    };
    function onCompleted(args: { returnvalue: unknown }) {
      if (settled) return;
      stop();
      resolve(args.returnvalue as T);
    }
    function onFailed(args: { failedReason?: string }) {
      if (settled) return;
      stop();
      reject(new Error(args.failedReason || 'job failed'));
    }
    function onRemoved() {
      if (settled) return;
      stop();
      reject(new JobRemovedError(job));
    }
    function onClosing(message: string) {
      if (settled) return;
      stop();
      reject(new Error(message || 'queue closing'));
    }
    const timer = setTimeout(() => {
      if (settled) return;
      stop();
      reject(new Error(timedOutMessage(job, ttl)));
    }, ttl);
    emitter.on(completedEvent, onCompleted);
    emitter.on(failedEvent, onFailed);
    emitter.on(removedEvent, onRemoved);
    closing.on('closing', onClosing);
    // A job that ended before the listeners: read once, when the events are being read (so that
    // no end falls between the two).
    events
      .waitUntilReady()
      // queue.getJob is Job.fromId: this module needs bullmq's types only (app/optional-module.ts).
      .then(() => (settled ? undefined : queue.getJob(id)))
      .then((fresh) => {
        // One read of the job's hash: its end time and its answer are written together, whereas
        // a state read after it could see an end the hash read before did not (no answer yet).
        if (!fresh || settled || !fresh.finishedOn) return;
        if (fresh.returnvalue !== null && fresh.returnvalue !== undefined) onCompleted({ returnvalue: fresh.returnvalue });
        else if (fresh.failedReason) onFailed({ failedReason: fresh.failedReason });
      })
      .catch(() => undefined);
  });
}
