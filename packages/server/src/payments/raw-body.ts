import type { AppContext } from '../app/context.js';
import { readBodyBytes } from '../app/multipart.js';

/**
 * The body of a provider callback exactly as it arrived: signatures are computed over these bytes.
 * Its path is in `config.rawBodyPaths`, so the global parser leaves the stream alone; when it did
 * not, null is returned and the signature cannot verify.
 */
export async function readRawBody(ctx: AppContext, maxBytes: number, tooLarge: string): Promise<Uint8Array | null> {
  if (ctx.req.readableEnded || ctx.request.body !== undefined) return null;
  return readBodyBytes(ctx, maxBytes, tooLarge);
}
