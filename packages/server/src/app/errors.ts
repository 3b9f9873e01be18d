/**
 * Errors a handler or service throws on purpose. The error middleware turns them into
 * `{ detail }` JSON with their status (docs/architecture.md §3); anything else becomes a 500 without details.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  /** Fields answered beside `detail` (e.g. the problems of an uploaded file). */
  readonly body: Record<string, unknown>;

  constructor(status: number, detail: string, headers: Record<string, string> = {}, body: Record<string, unknown> = {}) {
    super(detail);
    this.name = 'HttpError';
    this.status = status;
    this.headers = headers;
    this.body = body;
  }
}

export const badRequest = (detail: string) => new HttpError(400, detail);
export const unauthorized = (detail: string) => new HttpError(401, detail);
export const forbidden = (detail: string) => new HttpError(403, detail);
export const notFound = (detail: string) => new HttpError(404, detail);
export const conflict = (detail: string) => new HttpError(409, detail);
export const tooManyRequests = (detail: string, retryAfterSeconds: number) =>
  new HttpError(429, detail, { 'Retry-After': String(retryAfterSeconds) });
export const serviceUnavailable = (detail: string) => new HttpError(503, detail);
