/**
 * Where files live (results, CSV library, extractions, user strategies, invoices). Paths are
 * always relative, '/'-separated, and resolved inside the storage root; a local directory is the
 * default, an S3-compatible bucket can implement the same interface (DESIGN §4).
 */
export interface Storage {
  /** Absolute location of a relative path, after checking it stays inside the root. */
  resolve(relativePath: string): Promise<string>;
  write(relativePath: string, data: Uint8Array | string): Promise<void>;
  read(relativePath: string): Promise<Uint8Array>;
  exists(relativePath: string): Promise<boolean>;
  remove(relativePath: string): Promise<void>;
  /** Entries of a directory (names only), empty when it does not exist. */
  list(relativePath: string): Promise<string[]>;
}
