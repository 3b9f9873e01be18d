import type { AppContext } from './context.js';
import { mediaTypeOf, refuseUnreadBody, unsupportedBody } from './content-type.js';
import { HttpError, badRequest } from './errors.js';
import { bodyOf, type Body } from './input.js';
import { MSG } from './messages.js';

export const MULTIPART_MESSAGES = {
  oneFile: (field: string) => `Champ « ${field.slice(0, 40)} » : un seul fichier attendu.`,
  fieldTooLong: (field: string) => `Champ « ${field.slice(0, 40)} » trop long (1 Mo au plus).`,
  tooManyParts: (max: number) => `Formulaire refusé : plus de ${max} champs.`,
} as const;

/**
 * The parts a form may have: the largest of the API has a few dozen fields. Counted on the raw
 * body before it is parsed: 300,000 one-letter parts (18 MB, under an upload's limit) held the
 * event loop for a second in formData(), then as long again to be read into fields.
 */
export const FORM_MAX_PARTS = 1000;

/** The fields of a url-encoded body: its `&`-separated pairs (at most `max` + 1 counted). */
function countPairs(body: Buffer, max: number): number {
  let pairs = body.length > 0 ? 1 : 0;
  for (let at = body.indexOf(0x26); at >= 0 && pairs <= max; at = body.indexOf(0x26, at + 1)) pairs++;
  return pairs;
}

/** The parts of a multipart body: its delimiter lines, without parsing it (at most `max` + 1 counted). */
function countParts(body: Buffer, type: string, max: number): number {
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type);
  if (!boundary) return 0;
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  let parts = -1; // the closing delimiter is not a part
  for (let at = body.indexOf(delimiter); at >= 0 && parts <= max; at = body.indexOf(delimiter, at + delimiter.length)) parts++;
  return parts;
}

/**
 * A text field of a form holds at most what a whole JSON body may (1 MiB): an upload's body may be
 * 20 MB, and every field is read by code written for short values (a 20 MB `symbol` took a second
 * of the event loop to normalise before it was refused).
 */
export const FORM_FIELD_MAX_CHARS = 1024 * 1024;

export interface UploadedFile {
  filename: string;
  bytes: Uint8Array;
}

/**
 * Reads the multipart (or form-encoded) body of an upload route, itself: these paths are listed in
 * `config.rawBodyPaths` so the global parser and its 1 MiB limit leave them alone. The body is
 * counted while it arrives and refused with 413 past `maxBytes` (before reading when the declared
 * length already says so); the form is then parsed by the web-standard Response.formData(), so no
 * temporary file is written and the same code runs under Deno.
 */
export async function readForm(
  ctx: AppContext,
  maxBytes: number,
  tooLarge: string,
  timeout?: { ms: number; message: string },
): Promise<{ fields: Body; files: Record<string, UploadedFile> }> {
  const type = ctx.get('content-type');
  // Anything else (JSON, text, no type at all) is a 415 naming the two forms this route reads.
  if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i.test(type)) throw unsupportedBody(mediaTypeOf(type), ['multipart', 'form']);
  const body = await readBodyBytes(ctx, maxBytes, tooLarge, timeout);
  const parts = /^multipart\//i.test(type) ? countParts(body, type, FORM_MAX_PARTS) : countPairs(body, FORM_MAX_PARTS);
  if (parts > FORM_MAX_PARTS) throw badRequest(MULTIPART_MESSAGES.tooManyParts(FORM_MAX_PARTS));
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': type } }).formData();
  } catch {
    // Truncated or malformed multipart (a missing closing boundary, a bad header).
    throw badRequest(MSG.bodyInvalid);
  }
  // Without a prototype: a part named __proto__ (or constructor) was read as Object.prototype, so
  // one file sent under that name was 'Champ « __proto__ » : un seul fichier attendu.'.
  const fields: Body = Object.create(null);
  const files: Record<string, UploadedFile> = Object.create(null);
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') {
      if (value.length > FORM_FIELD_MAX_CHARS) throw badRequest(MULTIPART_MESSAGES.fieldTooLong(name));
      // A repeated field becomes a list, which the input helpers refuse by name (one value per
      // field), as in a JSON or url-encoded body: it used to be the last value, without a word.
      const previous = fields[name];
      if (previous === undefined) fields[name] = value;
      else if (Array.isArray(previous)) previous.push(value);
      else fields[name] = [previous, value];
    } else if (files[name]) {
      // Two files under one name: the second was dropped and the first run without a word.
      throw badRequest(MULTIPART_MESSAGES.oneFile(name));
    } else files[name] = { filename: value.name || name, bytes: new Uint8Array(await value.arrayBuffer()) };
  }
  return { fields, files };
}

/**
 * The request body as bytes, counted while it arrives: 413 with `tooLarge` past `maxBytes` (before
 * reading when the declared length already says so), 408 past the timeout. For the routes that
 * read their own bodies (uploads, payment callbacks), listed in `config.rawBodyPaths`.
 */
export async function readBodyBytes(ctx: AppContext, maxBytes: number, tooLarge: string, timeout?: { ms: number; message: string }): Promise<Buffer> {
  const declared = Number(ctx.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await discard(ctx, declared <= 2 * maxBytes ? declared : 0);
    throw new HttpError(413, tooLarge);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timedOut = false;
  const timer = timeout
    ? setTimeout(() => {
        timedOut = true;
        ctx.req.destroy();
      }, timeout.ms)
    : undefined;
  try {
    for await (const chunk of ctx.req as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > maxBytes) {
        await discard(ctx, 2 * maxBytes - size);
        throw new HttpError(413, tooLarge);
      }
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    if (timedOut) throw new HttpError(408, timeout!.message);
    // The client went away mid-body (aborted, reset): nothing to parse, nobody to answer.
    throw badRequest(MSG.bodyInvalid);
  } finally {
    clearTimeout(timer);
  }
  if (timedOut) throw new HttpError(408, timeout!.message);
  return Buffer.concat(chunks);
}

/**
 * Reads and drops the rest of a refused body, up to `budget` more bytes, so a client that sent up
 * to twice the limit reads its 413 (a client still writing when the server closes sees a broken
 * pipe instead of the answer). Past the budget the connection is cut: nobody gets to make the
 * server read gigabytes for nothing. Nothing read is kept (a route that refuses a body it has
 * not read may answer at once and leave this running: admin/maintenance-routes.ts).
 */
export async function discard(ctx: AppContext, budget: number): Promise<void> {
  const req = ctx.req;
  if (req.readableEnded) return;
  await new Promise<void>((resolve) => {
    let left = Math.max(0, budget);
    const done = () => {
      req.off('data', onData);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      left -= chunk.length;
      if (left < 0) {
        ctx.set('Connection', 'close');
        req.destroy();
        done();
      }
    };
    req.on('data', onData);
    req.once('end', done);
    req.once('close', done);
    req.once('error', done);
    req.resume();
  });
}

/**
 * The fields of a route that takes JSON, a url-encoded form or a multipart form (the profile
 * form is sent as multipart): multipart is read here, bounded, and its file parts dropped.
 */
export async function fieldsOf(ctx: AppContext, maxBytes: number): Promise<Body> {
  if (!ctx.is('multipart')) {
    refuseUnreadBody(ctx, ['json', 'form', 'multipart']);
    return bodyOf(ctx);
  }
  return (await readForm(ctx, maxBytes, MSG.bodyTooLarge)).fields;
}
