/** How much uploaded-file work the server takes on at once (docs/security.md, "Uploads"). */
export interface UploadLimits {
  /** Uploads read and parsed at the same time; the others wait before their body is read. */
  concurrency: number;
  /** Uploads allowed to wait; past it the answer is 503 at once. */
  maxQueue: number;
  /** Old-generation heap of each parse process: a file that needs more ends its process, not the server. */
  parseMemoryMb: number;
  /** A parse still running after this is stopped (its worker ended). */
  parseTimeoutMs: number;
  /** An .xlsx may inflate to at most this many bytes, counted while inflating. */
  xlsxMaxInflatedBytes: number;
  /** Rows across an .xlsx's worksheets. */
  xlsxMaxRows: number;
  /** A body still arriving after this is refused (a client that trickles holds no slot forever). */
  bodyTimeoutMs: number;
}

export const DEFAULT_UPLOAD_LIMITS: UploadLimits = {
  concurrency: 2,
  maxQueue: 32,
  parseMemoryMb: 768,
  parseTimeoutMs: 60_000,
  xlsxMaxInflatedBytes: 64 * 1024 * 1024,
  xlsxMaxRows: 100_000,
  bodyTimeoutMs: 120_000,
};
