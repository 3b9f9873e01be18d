/** Bounds of the admin's import of output data (docs/admin.md, "Import rules"; docs/server.md lists the variables). */
export interface ImportLimits {
  /** The archive itself (an upload or a download). */
  maxArchiveBytes: number;
  /** What one CSV may inflate to. */
  maxEntryBytes: number;
  /** What the whole archive may inflate to. */
  maxInflatedBytes: number;
  maxEntries: number;
  /** A source_url download: wall clock, redirects. */
  urlTimeoutMs: number;
  maxRedirects: number;
  /** Networks a source_url may resolve to although private or local (`IMPORT_URL_ALLOW`). */
  urlAllow: string[];
}

export const DEFAULT_IMPORT_LIMITS: ImportLimits = {
  maxArchiveBytes: 100 * 1024 * 1024,
  maxEntryBytes: 64 * 1024 * 1024,
  maxInflatedBytes: 1024 * 1024 * 1024,
  maxEntries: 5000,
  urlTimeoutMs: 120_000,
  maxRedirects: 5,
  urlAllow: [],
};

