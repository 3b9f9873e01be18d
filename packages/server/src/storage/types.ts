import type { Readable } from 'node:stream';

/** One entry of a storage directory (the admin's disk explorer, the billing files). */
export interface StorageEntry {
  name: string;
  type: 'file' | 'dir';
  /** File size; 0 for a directory. */
  bytes: number;
  mtime: Date;
}

/** Bytes staged by `Storage.stage`, at no path yet; only the storage that staged them can publish them. */
export interface StagedFile {
  readonly bytes: number;
}

/**
 * Where files live (results, CSV library, extractions, user strategies, invoices). Paths are
 * always relative, '/'-separated, and resolved inside the storage root; a local directory is the
 * default, an S3-compatible bucket can implement the same interface (docs/architecture.md).
 */
export interface Storage {
  /** Absolute location of a relative path, after checking it stays inside the root. */
  resolve(relativePath: string): Promise<string>;
  /**
   * Writes the whole file or nothing: readers see the old content or the new one, never a part
   * (a process killed mid-write leaves at most a staging file that `clearStaging` removes).
   */
  write(relativePath: string, data: Uint8Array | string): Promise<void>;
  /**
   * The bytes put aside at no path yet (the local staging folder; kept in memory for a bucket,
   * whose PUT is whole or nothing already), for `publish` to put them at a path later, or `discard`
   * to drop them. A write in two steps, for a caller that decides between them whether the file
   * may still go there: a backtest's workbook is staged while its run turns done and published only
   * while the run still owns its folder (backtests/finish.ts, docs/queue.md "A late worker's
   * workbook"). A process killed in between leaves at most what `clearStaging` removes.
   */
  stage(data: Uint8Array | string): Promise<StagedFile>;
  /**
   * The staged bytes at `relativePath`, whole, replacing what is there (a rename on a local disk,
   * kept short: callers hold a database lock around it). The staged file is used up; one already
   * published or discarded is an error.
   */
  publish(staged: StagedFile, relativePath: string): Promise<void>;
  /** The staged bytes dropped; nothing to do for one already published or discarded. */
  discard(staged: StagedFile): Promise<void>;
  read(relativePath: string): Promise<Uint8Array>;
  /**
   * The file as a stream (downloads of any size without holding them in memory), with the size of
   * what the stream holds: the opened file's, not a stat of the path made before or after, which a
   * file replaced or appended to in between would contradict (a wrong Content-Length); null when
   * the backend does not say (the answer is then sent without a length).
   */
  readStream(relativePath: string): Promise<{ stream: Readable; bytes: number | null }>;
  exists(relativePath: string): Promise<boolean>;
  remove(relativePath: string): Promise<void>;
  /** Entries of a directory (names only), empty when it does not exist. */
  list(relativePath: string): Promise<string[]>;
  /** The entry at a path, null when nothing is there (or it is a link leading outside the root). */
  stat(relativePath: string): Promise<StorageEntry | null>;
  /**
   * The entries of a directory with their type, size and time, sorted by name; empty when it does
   * not exist. Links are followed inside the root; a link leading outside it is left out.
   */
  entries(relativePath: string): Promise<StorageEntry[]>;
  /** Removes what interrupted writes left behind (called at start, and before an import). */
  clearStaging(): Promise<number>;
  /** Resolves when the backend can be used (readiness): the root folder, or the bucket, answers. */
  ping(): Promise<void>;
}
