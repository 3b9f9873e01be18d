/**
 * Reading loose fields of API answers: the server's items carry strings, numbers or nothing
 * under several aliases, and every reader wants the same two questions answered.
 */

/** A string trimmed, a finite number as text, else ''. */
export function fieldText(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

/** A string trimmed, else '' (numbers are not names). */
export function fieldString(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** A finite number, else null (no parsing of strings). */
export function fieldNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
