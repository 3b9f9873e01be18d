import type { AppContext } from './context.js';
import { HttpError } from './errors.js';

/**
 * What the global body parser reads (createApp.ts, koa-body's own lists): JSON and url-encoded
 * forms. A body in any other type, or with no type at all, used to be dropped without a word, and
 * the route then answered about a missing field (a JSON body sent as text/plain got 'Choisis une
 * stratégie'). The parser now notes such a body (`ctx.state.unreadBody`), and a route that reads
 * its body (`bodyOf`, `fieldsOf`) answers 415 naming the types it takes. Routes that never read a
 * body (GET, DELETE, a POST without fields) are untouched, and the paths that read their own raw
 * bodies (uploads, payment callbacks: `config.rawBodyPaths`) never reach this.
 */
export const PARSED_JSON_TYPES = ['application/json', 'application/json-patch+json', 'application/vnd.api+json', 'application/csp-report', 'application/reports+json'];
export const PARSED_FORM_TYPES = ['urlencoded'];

export const CONTENT_TYPE_MESSAGES = {
  unsupported: (type: string, accepted: readonly string[]) => `Type de contenu non pris en charge (${type}) : envoie le corps en ${acceptedText(accepted)}.`,
  missing: (accepted: readonly string[]) => `Type de contenu manquant (en-tête Content-Type) : envoie le corps en ${acceptedText(accepted)}.`,
} as const;

/** The types a body-reading route takes: JSON or a url-encoded form; `multipart` for the routes that read one too. */
export type AcceptedBody = 'json' | 'form' | 'multipart';
const NAMES: Record<AcceptedBody, string> = {
  json: 'JSON (application/json)',
  form: 'formulaire (application/x-www-form-urlencoded)',
  multipart: 'formulaire multipart (multipart/form-data)',
};
const acceptedText = (accepted: readonly string[]) => {
  const names = accepted.map((a) => NAMES[a as AcceptedBody] ?? a);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} ou ${names[names.length - 1]}` : names[0];
};

/**
 * The type of a body the parser will not read, '' for a body without a type; null when there is
 * nothing to say (no body, a method whose body is never read, a type the parser reads).
 */
export function unreadBodyType(ctx: AppContext): string | null {
  if (!['POST', 'PUT', 'PATCH'].includes(ctx.method)) return null;
  const length = ctx.get('content-length');
  const hasBody = ctx.get('transfer-encoding') !== '' || (length !== '' && length !== '0');
  if (!hasBody) return null;
  if (ctx.is([...PARSED_JSON_TYPES, ...PARSED_FORM_TYPES])) return null;
  return mediaTypeOf(ctx.get('content-type'));
}

/** Only the media type of a Content-Type header, printable and short: the header is the client's. */
export function mediaTypeOf(header: string): string {
  return header.split(';')[0].trim().replace(/[^\x21-\x7e]/g, '?').slice(0, 80);
}

/** The 415 for a body of `type` ('' without one) where the route reads `accepted`. */
export function unsupportedBody(type: string, accepted: readonly AcceptedBody[]): HttpError {
  return new HttpError(415, type ? CONTENT_TYPE_MESSAGES.unsupported(type, accepted) : CONTENT_TYPE_MESSAGES.missing(accepted));
}

/** 415 when the body came in a type the route does not read (see above). */
export function refuseUnreadBody(ctx: { state?: { unreadBody?: string } }, accepted: readonly AcceptedBody[] = ['json', 'form']): void {
  const type = ctx.state?.unreadBody;
  if (type === undefined) return;
  throw unsupportedBody(type, accepted);
}
