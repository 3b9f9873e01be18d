// What `bt admin` reads of an answer, checked before anything is printed: an answer of another
// shape (another version of the server) is then named with its call and the field (the client,
// admin/client.ts) instead of printed as `undefined` cells.

/** A field's kind; a trailing `?` lets it be null or absent. */
export type FieldKind = 'number' | 'string' | 'boolean' | 'array' | 'object' | 'number?' | 'string?' | 'boolean?' | 'array?' | 'object?';

/** The fields an answer must hold, with nested objects' own fields. */
export interface AnswerShape {
  [field: string]: FieldKind | AnswerShape;
}

function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}

function matches(value: unknown, kind: string): boolean {
  if (kind === 'array') return Array.isArray(value);
  if (kind === 'object') return typeof value === 'object' && value !== null && !Array.isArray(value);
  if (kind === 'number') return typeof value === 'number' && Number.isFinite(value);
  return typeof value === kind;
}

/**
 * Throws a TypeError naming the first field that is not what `shape` says (`result.datasets is
 * missing, expected a number`); the answer itself must be an object.
 */
export function checkAnswerShape(answer: unknown, shape: AnswerShape, at = ''): void {
  if (!matches(answer, 'object')) throw new TypeError(`${at ? `${at} is` : 'the answer is'} ${describe(answer)}, expected an object`);
  const fields = answer as Record<string, unknown>;
  for (const [name, kind] of Object.entries(shape)) {
    const path = at ? `${at}.${name}` : name;
    const value = fields[name];
    if (typeof kind === 'object') {
      checkAnswerShape(value, kind, path);
      continue;
    }
    const optional = kind.endsWith('?');
    const base = optional ? kind.slice(0, -1) : kind;
    if (optional && (value === null || value === undefined)) continue;
    if (!matches(value, base)) throw new TypeError(`${path} is ${describe(value)}, expected ${base === 'array' ? 'a list' : base === 'object' ? 'an object' : `a ${base}`}`);
  }
}
