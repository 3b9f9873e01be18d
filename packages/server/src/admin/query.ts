import { badRequest } from '../app/errors.js';
import { intField, text, type Body } from '../app/input.js';

export { intField };
import { ADMIN_MSG } from './messages.js';

/** An optional whole number (undefined when absent). */
export function optionalInt(body: Body, name: string, min: number, max: number, message: string): number | undefined {
  return text(body, name) === '' ? undefined : intField(body, name, { min, max, message });
}

/** `limit` and `offset` of a listing. */
export function pageOf(query: Body, defaultLimit: number, maxLimit: number): { limit: number; offset: number } {
  const message = ADMIN_MSG.pageInvalid(maxLimit);
  return {
    limit: intField(query, 'limit', { min: 1, max: maxLimit, fallback: defaultLimit, message }),
    offset: intField(query, 'offset', { min: 0, max: Number.MAX_SAFE_INTEGER, fallback: 0, message }),
  };
}

/** A user id from a body or a path: a positive whole number, or 400 `Utilisateur manquant (user_id).` */
export function userIdOf(raw: string): number {
  const id = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(id) || id <= 0) throw badRequest(ADMIN_MSG.userMissing);
  return id;
}

/** true/false in the spellings forms send (`1`, `on`, `yes`); `fallback` when absent. */
export function boolField(body: Body, name: string, fallback: boolean, message: (value: string) => string): boolean {
  const raw = text(body, name).toLowerCase();
  if (raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw badRequest(message(raw));
}
