import type { AppContext } from '../app/context.js';
import { HttpError } from '../app/errors.js';

/**
 * The body of a provider callback exactly as it arrived: signatures are computed over these bytes.
 * Its path is in `config.rawBodyPaths`, so the global parser leaves the stream alone; when it did
 * not (a path written another way), null is returned and the signature cannot verify.
 */
export async function readRawBody(ctx: AppContext, maxBytes: number, tooLarge: string): Promise<Uint8Array | null> {
  if (ctx.req.readableEnded || ctx.request.body !== undefined) return null;
  const declared = Number(ctx.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    ctx.req.resume();
    throw new HttpError(413, tooLarge);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      ctx.req.resume();
      throw new HttpError(413, tooLarge);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
