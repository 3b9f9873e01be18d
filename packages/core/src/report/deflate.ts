/** A compressed ZIP part: raw deflate (RFC 1951) bytes, and the CRC-32 and length of the input. */
export interface DeflatedPart {
  readonly raw: Uint8Array;
  readonly crc: number;
  readonly size: number;
}

/** A part handed over piece by piece while it is being written, so that compression runs meanwhile. */
export interface PieceDeflater {
  /** Piece `index` of the part (0 first); pieces may come in any order, and compression may start at once. */
  put(index: number, piece: Uint8Array): void;
  /** The part once every piece 0..n-1 is put. */
  finish(): Promise<DeflatedPart>;
}

/**
 * How the workbook's parts are compressed. `pieces` is optional: without it, a large part is
 * gathered and given to `deflate` whole.
 */
export interface Deflater {
  deflate(data: Uint8Array): DeflatedPart | Promise<DeflatedPart>;
  pieces?(): PieceDeflater;
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  return concat(chunks);
}

/** Length of a gzip member's header (RFC 1952 §2.3), optional fields included. */
function gzipHeaderLength(gz: Uint8Array): number {
  if (gz.length < 18 || gz[0] !== 0x1f || gz[1] !== 0x8b || gz[2] !== 8) throw new Error('invalid gzip output from CompressionStream');
  const flags = gz[3];
  let at = 10;
  if (flags & 0x04) at += 2 + (gz[at] | (gz[at + 1] << 8)); // FEXTRA
  if (flags & 0x08) while (gz[at++] !== 0); // FNAME
  if (flags & 0x10) while (gz[at++] !== 0); // FCOMMENT
  if (flags & 0x02) at += 2; // FHCRC
  return at;
}

/**
 * The portable deflater (browsers, Deno, any Node): CompressionStream('gzip'), whose member
 * trailer already carries the CRC-32 and size the ZIP headers need, so no byte is compressed or
 * checksummed in JavaScript. Its level is fixed (zlib's default, 6) and, in Node, each part
 * goes through the thread pool in stream-sized chunks: correct everywhere, but several times
 * slower than nodeDeflater on a 10,000-trade sheet (docs/report.md).
 */
export const compressionStreamDeflater: Deflater = {
  async deflate(data) {
    const input = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(data);
        controller.close();
      },
    });
    // Cast: Node's and the DOM's typings of CompressionStream disagree on the writable side's
    // chunk type (BufferSource vs Uint8Array), and core is compiled against both.
    const gz = await collect(input.pipeThrough(new CompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>));
    const view = new DataView(gz.buffer, gz.byteOffset, gz.byteLength);
    const crc = view.getUint32(gz.length - 8, true);
    const size = view.getUint32(gz.length - 4, true);
    if (size !== data.length % 0x1_0000_0000) throw new Error('invalid gzip output from CompressionStream (size)');
    return { raw: gz.subarray(gzipHeaderLength(gz), gz.length - 8), crc, size: data.length };
  },
};

/** A zlib transform stream, as much of it as the piece deflater uses. */
interface NodeZlibStream {
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  end(chunk: Uint8Array): unknown;
}

/** The part of node:zlib the fast deflater uses (typed here so that core needs no Node types). */
interface NodeZlib {
  deflateRawSync(data: Uint8Array, options: { level: number }): Uint8Array;
  createDeflateRaw(options: { level: number; finishFlush: number; chunkSize: number }): NodeZlibStream;
  crc32(data: Uint8Array, value?: number): number;
  constants: { Z_SYNC_FLUSH: number };
}

/**
 * zlib level 1: on the 6.5 MB Trades sheet of a 10,000-trade run it deflates in under a third
 * of the time of level 6 (CompressionStream's) for a file about 40 % larger (level 2: 4 % slower,
 * 9 % smaller). A workbook is written once per run, on the run's critical path.
 */
export const NODE_DEFLATE_LEVEL = 1;

/**
 * Output buffer of a piece's deflate stream. With Node's default (16 KiB) zlib stops and calls
 * back to JavaScript every 16 KiB of output, a thread-pool round trip each; a 512 KiB piece
 * deflates to about 70 KiB: one trip.
 */
const PIECE_OUTPUT_CHUNK = 256 * 1024;

/** One piece through its own zlib stream on the thread pool, ended by a sync flush. */
function deflatePiece(zlib: NodeZlib, level: number, piece: Uint8Array): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    // A stream rather than zlib.deflateRaw(buffer, callback): that convenience cost 0.4-0.9 ms of
    // main-thread time per call here, the stream's dispatch a few hundredths.
    const stream = zlib.createDeflateRaw({ level, finishFlush: zlib.constants.Z_SYNC_FLUSH, chunkSize: PIECE_OUTPUT_CHUNK });
    const chunks: Uint8Array[] = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('error', reject);
    stream.on('end', () => resolve(chunks.length === 1 ? chunks[0] : concat(chunks)));
    stream.end(piece);
  });
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** A raw deflate stream's last block: empty, final, fixed Huffman codes (what zlib ends an empty input with). */
const FINAL_EMPTY_BLOCK = Uint8Array.of(0x03, 0x00);

/**
 * Node's own zlib: small parts synchronously; a large part's pieces each on the thread pool as
 * soon as they are written, so deflate runs beside the XML writing instead of after it. Each
 * piece is a deflate stream of its own ended by a sync flush (byte-aligned, not final), so the
 * pieces concatenate into one valid stream (what pigz does), closed by an empty final block. The
 * dictionary restarting at each piece costs well under 1 % of size at 512 KiB pieces.
 */
export function nodeDeflater(zlib: NodeZlib, level: number = NODE_DEFLATE_LEVEL): Deflater {
  const deflater: Deflater = {
    deflate: (data) => ({ raw: zlib.deflateRawSync(data, { level }), crc: zlib.crc32(data) >>> 0, size: data.length }),
    pieces() {
      const pieces: Uint8Array[] = [];
      const compressed: Promise<Uint8Array>[] = [];
      return {
        put(index, piece) {
          pieces[index] = piece;
          // An empty piece adds nothing (and Node's crc32 of an empty array once deflated returns 0, not its start value).
          if (piece.length === 0) {
            compressed[index] = Promise.resolve(piece);
            return;
          }
          compressed[index] = deflatePiece(zlib, level, piece);
          // If the writer fails before finish(), nobody awaits this piece: keep a zlib error from
          // becoming an unhandled rejection (finish() still sees it through the original promise).
          compressed[index].catch(() => undefined);
        },
        async finish() {
          const raws = await Promise.all(compressed);
          let crc = 0;
          let size = 0;
          for (let i = 0; i < pieces.length; i++) {
            if (!pieces[i]) throw new Error(`invalid part: piece ${i} missing`);
            if (pieces[i].length > 0) crc = zlib.crc32(pieces[i], crc);
            size += pieces[i].length;
          }
          return { raw: concat([...raws, FINAL_EMPTY_BLOCK]), crc: crc >>> 0, size };
        },
      };
    },
  };
  doneWithInput.add(deflater);
  return deflater;
}

/** Deflaters whose deflate(), when it returns a part rather than a promise, no longer needs its input. */
const doneWithInput = new WeakSet<Deflater>();

/**
 * Whether `deflater` is one of ours that copies its input before deflate() returns synchronously
 * (zlib does): the caller may then reuse the input's buffer. A caller's own deflater may keep
 * the array it was given (a stored part, say), so its input is never reused.
 */
export function releasesInput(deflater: Deflater): boolean {
  return doneWithInput.has(deflater);
}

let detected: Deflater | undefined;

/**
 * Node's zlib when the runtime has it, else CompressionStream. Node is found through
 * process.getBuiltinModule (Node 20.16+, 22.3+), not through an import, so this module stays
 * loadable in a browser bundle, where `process` does not exist and the portable path is taken.
 * Every Node consumer of runBacktest (server, CLI, benchmarks) gets the fast path this way
 * without passing anything.
 */
export function defaultDeflater(): Deflater {
  if (detected) return detected;
  const getBuiltinModule = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  const zlib = typeof getBuiltinModule === 'function' ? (getBuiltinModule('node:zlib') as Partial<NodeZlib> | undefined) : undefined;
  const usable = zlib && typeof zlib.deflateRawSync === 'function' && typeof zlib.createDeflateRaw === 'function' && typeof zlib.crc32 === 'function' && zlib.constants;
  detected = usable ? nodeDeflater(zlib as NodeZlib) : compressionStreamDeflater;
  return detected;
}
