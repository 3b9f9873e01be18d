/** A request body as a plain record (JSON, form or multipart fields). */
export type Body = Record<string, unknown>;

export function bodyOf(ctx: { request: { body?: unknown } }): Body {
  const body = ctx.request.body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Body) : {};
}

/** A string field, trimmed; '' when absent. Numbers are accepted as their text. */
export function text(body: Body, name: string, { trim = true } = {}): string {
  let value = body[name];
  if (Array.isArray(value)) value = value[0];
  if (typeof value === 'number' && Number.isFinite(value)) value = String(value);
  if (typeof value !== 'string') return '';
  return trim ? value.trim() : value;
}

/** The first non-empty field among aliases. */
export function textOf(body: Body, names: string[], options?: { trim?: boolean }): string {
  for (const name of names) {
    const value = text(body, name, options);
    if (value !== '') return value;
  }
  return '';
}
