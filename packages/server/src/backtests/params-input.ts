import { badRequest } from '../app/errors.js';
import { JSON_DEPTH_MESSAGES, nestsDeeperThan } from '../app/json-depth.js';

/**
 * More names than any strategy reads (a personal strategy's 30 own parameters, the engine's and
 * its filters'), with room for a form's empty fields; and longer names than any (40 characters for
 * a personal strategy's own, the catalogue's shorter).
 */
export const PARAMS_MAX_NAMES = 100;
export const PARAM_NAME_MAX = 64;
/**
 * Parameters as JSON text (the upload's params_json): 256 KB, sixteen times what a run may store,
 * so that what core refuses by name (a 90 KB text value) still reaches it.
 */
export const PARAMS_TEXT_MAX_BYTES = 256 * 1024;

export const PARAMS_INPUT_MESSAGES = {
  tooMany: (count: number) => `Champ « params » : ${count.toLocaleString('fr-FR')} paramètres, ${PARAMS_MAX_NAMES} au plus.`,
  textTooLarge: (kb: number) => `Champ « params » : paramètres trop volumineux (${kb.toLocaleString('fr-FR')} Ko envoyés, ${PARAMS_TEXT_MAX_BYTES / 1024} Ko au plus).`,
  nameTooLong: (name: string) => `Champ « params » : nom de paramètre trop long (« ${name.slice(0, 40)}… », ${PARAM_NAME_MAX} caractères au plus).`,
} as const;

/**
 * The request's parameters (an object, or JSON text as the upload form sends them) bounded before
 * core's normaliser sees them, which compares every unknown name with every known one for its
 * "did you mean" (an edit distance, the product of both lengths) and writes a warning for each:
 * one name of 1 MB held the event loop 2 s, 50,000 short ones 1 to 2 s with a 9.6 MB answer of
 * warnings (and an upload's params_json may be 20 MB). Also measures the nesting of JSON text,
 * which the body's depth guard never saw (app/json-depth.ts). Anything else (text that does not
 * parse, a value that is not an object) is left to the normaliser's own message.
 */
export function checkParamsInput(raw: unknown): void {
  let value = raw;
  if (typeof raw === 'string') {
    // Before parsing: 20 MB of `[{},{},…]` is millions of objects on the event loop's heap.
    const bytes = Buffer.byteLength(raw, 'utf8');
    if (bytes > PARAMS_TEXT_MAX_BYTES) throw badRequest(PARAMS_INPUT_MESSAGES.textTooLarge(Math.ceil(bytes / 1024)));
    if (!/[[{]/.test(raw)) return;
    try {
      value = JSON.parse(raw);
    } catch {
      return;
    }
    if (nestsDeeperThan(value)) throw badRequest(JSON_DEPTH_MESSAGES.field('params'));
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  const names = Object.keys(value);
  if (names.length > PARAMS_MAX_NAMES) throw badRequest(PARAMS_INPUT_MESSAGES.tooMany(names.length));
  const long = names.find((name) => name.length > PARAM_NAME_MAX);
  if (long !== undefined) throw badRequest(PARAMS_INPUT_MESSAGES.nameTooLong(long));
}
