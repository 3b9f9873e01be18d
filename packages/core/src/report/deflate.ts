/**
 * How a ZIP part is compressed: raw deflate (RFC 1951) bytes and the CRC-32 of the input.
 * Sync or async, so that both Node's zlib and the web-standard CompressionStream fit.
 */
export interface DeflatedPart {
  readonly raw: Uint8Array;
  readonly crc: number;
}

export type RawDeflate = (data: Uint8Array) => DeflatedPart | Promise<DeflatedPart>;

async function collect(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.length;
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
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
 * slower than nodeDeflate on a 10,000-trade sheet (docs/report.md).
 */
export const compressionStreamDeflate: RawDeflate = async (data) => {
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(data);
      controller.close();
    },
  });
  const gz = await collect(input.pipeThrough(new CompressionStream('gzip')));
  const view = new DataView(gz.buffer, gz.byteOffset, gz.byteLength);
  const crc = view.getUint32(gz.length - 8, true);
  const size = view.getUint32(gz.length - 4, true);
  if (size !== data.length % 0x1_0000_0000) throw new Error('invalid gzip output from CompressionStream (size)');
  return { raw: gz.subarray(gzipHeaderLength(gz), gz.length - 8), crc };
};

/** The part of node:zlib the fast deflater uses (typed here so that core needs no Node types). */
interface NodeZlib {
  deflateRawSync(data: Uint8Array, options: { level: number }): Uint8Array;
  crc32(data: Uint8Array): number;
}

/**
 * zlib level 1: on the 8 MB Trades sheet of a 10,000-trade run it deflates in about a fifth of
 * the time of level 6 for a file about a third larger (docs/report.md has the measurements);
 * a workbook is written once per run, on the run's critical path, and read rarely.
 */
export const NODE_DEFLATE_LEVEL = 1;

/** A synchronous deflater on Node's own zlib (level 1, native CRC-32). */
export function nodeDeflate(zlib: NodeZlib, level: number = NODE_DEFLATE_LEVEL): RawDeflate {
  return (data) => ({ raw: zlib.deflateRawSync(data, { level }), crc: zlib.crc32(data) >>> 0 });
}

let detected: RawDeflate | undefined;

/**
 * Node's zlib when the runtime has it, else CompressionStream. Node is found through
 * process.getBuiltinModule (Node 20.16+, 22.3+), not through an import, so this module stays
 * loadable in a browser bundle, where `process` does not exist and the portable path is taken.
 * Every Node consumer of runBacktest (server, CLI, benchmarks) gets the fast path this way
 * without passing anything.
 */
export function defaultDeflate(): RawDeflate {
  if (detected) return detected;
  const getBuiltinModule = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  const zlib = typeof getBuiltinModule === 'function' ? (getBuiltinModule('node:zlib') as Partial<NodeZlib> | undefined) : undefined;
  detected = zlib && typeof zlib.deflateRawSync === 'function' && typeof zlib.crc32 === 'function' ? nodeDeflate(zlib as NodeZlib) : compressionStreamDeflate;
  return detected;
}
