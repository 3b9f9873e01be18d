import { refuseUnreadBody } from './content-type.js';
import { badRequest } from './errors.js';
import { MSG } from './messages.js';

/** A request body as a plain record (JSON, form or multipart fields). */
export type Body = Record<string, unknown>;

export function bodyOf(ctx: { request: { body?: unknown }; state?: { unreadBody?: string } }): Body {
  // A body sent in a type the parser does not read is a 415, not a body without fields.
  refuseUnreadBody(ctx);
  const body = ctx.request.body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Body) : {};
}

/**
 * A string field, trimmed; '' when absent or null. Numbers and booleans are accepted as their
 * text. A list or an object where one value is expected (`?symbol=a&symbol=b`, `{"symbol":
 * ["a"]}`) is refused with a 400 naming the field, never quietly cut to its first element.
 */
export function text(body: Body, name: string, { trim = true } = {}): string {
  const value = scalar(body, name);
  if (value === undefined) return '';
  return trim ? value.trim() : value;
}

/** The field as text, undefined when absent/null/empty-valued; throws 400 for a list, an object or a NUL character. */
export function scalar(body: Body, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') {
    // No field of the API takes a NUL; refused here rather than carried into SQL, a path or a log.
    if (value.includes('\0')) throw badRequest(MSG.nulCharacter(name));
    return value;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'boolean') return String(value);
  throw badRequest(MSG.singleValueExpected(name));
}

/** The first non-empty field among aliases. */
export function textOf(body: Body, names: string[], options?: { trim?: boolean }): string {
  for (const name of names) {
    const value = text(body, name, options);
    if (value !== '') return value;
  }
  return '';
}

/** A whole number from a query or body field, within bounds; `fallback` when absent; 400 otherwise. */
export function intField(body: Body, name: string, options: { min: number; max: number; fallback?: number; message: string }): number {
  const raw = text(body, name);
  if (raw === '') {
    if (options.fallback === undefined) throw badRequest(options.message);
    return options.fallback;
  }
  const value = Number(raw);
  if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(value) || value < options.min || value > options.max) throw badRequest(options.message);
  return value;
}

/**
 * Characters as the French messages count them and MySQL's utf8mb4 columns hold them: code points,
 * not UTF-16 units (`'🙂'.length` is 2, so 61 emoji were "more than 120 characters").
 */
export function characterCount(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}
