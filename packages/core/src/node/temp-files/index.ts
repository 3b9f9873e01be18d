// The temporary files writeFileWhole (../write-file.ts) is writing now, in a module of their own
// with no other import (@bt/core/node/temp-files), so a program can install a signal handler that
// removes them without loading the readers and writers that @bt/core/node brings.
import { rmSync } from 'node:fs';

// The temporary files being written now, so that a process ending on a signal can remove them (a
// kill leaves the destination whole, but the hidden temporary beside it stayed). Kept here and
// only read by whoever asks: the CLI removes them on SIGINT, SIGTERM and exit (docs/cli.md "Files
// bt writes"); the server does not ask, and behaves as before.
const unfinished = new Set<string>();
type TempListener = (path: string, writing: boolean) => void;
const listeners = new Set<TempListener>();

/** writeFileWhole's report: `path` started (`true`) or ended (`false`). */
export function tracking(path: string, writing: boolean): void {
  trackTempFile(path, writing);
  for (const listener of listeners) listener(path, writing);
}

/** The temporary files writeFileWhole is writing now in this thread (and those trackTempFile was told of). */
export function unfinishedTempFiles(): string[] {
  return [...unfinished];
}

/**
 * Removes every unfinished temporary file now, synchronously (for a signal or `exit` handler, when
 * no await will run again); a file already gone or that cannot be removed is passed over.
 * Returns the paths removed.
 */
export function removeUnfinishedTempFiles(): string[] {
  const removed: string[] = [];
  for (const path of unfinished) {
    try {
      rmSync(path, { force: true });
      removed.push(path);
    } catch {
      // Nothing more can be done on the way out.
    }
  }
  const had = unfinished.size;
  unfinished.clear();
  if (had > 0) for (const listener of countListeners) listener(0);
  return removed;
}

const countListeners = new Set<(count: number) => void>();

/** Records a temporary file another thread writes (a worker that reported it), or forgets it. */
export function trackTempFile(path: string, writing: boolean): void {
  const before = unfinished.size;
  if (writing) unfinished.add(path);
  else unfinished.delete(path);
  if (unfinished.size !== before) for (const listener of countListeners) listener(unfinished.size);
}

/**
 * Calls `listener` with the number of unfinished temporary files of this thread (its own and those
 * recorded for its workers) each time it changes; returns the unsubscribe. The CLI keeps its signal
 * handlers only while it is not 0 (cli/src/interrupt.ts).
 */
export function onUnfinishedCount(listener: (count: number) => void): () => void {
  countListeners.add(listener);
  return () => countListeners.delete(listener);
}

/** Calls `listener` each time this thread starts (`true`) or ends (`false`) a temporary file; returns the unsubscribe. */
export function onTempFile(listener: TempListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

