import type { AppContext } from './context.js';
import { HttpError, badRequest } from './errors.js';
import type { Body } from './input.js';

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
export async function readForm(ctx: AppContext, maxBytes: number, tooLarge: string): Promise<{ fields: Body; files: Record<string, UploadedFile> }> {
  const type = ctx.get('content-type');
  if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i.test(type)) throw badRequest('Formulaire attendu (multipart/form-data).');
  const declared = Number(ctx.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    ctx.req.resume();
    throw new HttpError(413, tooLarge);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      ctx.req.resume();
      throw new HttpError(413, tooLarge);
    }
    chunks.push(chunk);
  }
  let form: FormData;
  try {
    form = await new Response(Buffer.concat(chunks), { headers: { 'content-type': type } }).formData();
  } catch {
    throw badRequest('Corps de requête invalide.');
  }
  const fields: Body = {};
  const files: Record<string, UploadedFile> = {};
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') fields[name] = value;
    else if (!files[name]) files[name] = { filename: value.name || name, bytes: new Uint8Array(await value.arrayBuffer()) };
  }
  return { fields, files };
}
