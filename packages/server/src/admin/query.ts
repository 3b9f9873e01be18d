import { badRequest } from '../app/errors.js';
import { text, type Body } from '../app/input.js';
import { ADMIN_MSG } from './messages.js';

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
