/**
 * A ZIP writer whose deflate runs natively: each part goes through the web-standard
 * CompressionStream('gzip') (zlib underneath in Node and Deno, the browser's own elsewhere), and
 * the gzip member's trailer already carries the CRC-32 and size the ZIP headers need, so no byte
 * is compressed or checksummed in JavaScript. Measured on a 3,000-trade workbook this was 2-3x
 * faster than fflate's pure-JS deflate, which dominated the workbook's cost.
 */

export interface ZipPart {
  readonly name: string;
  readonly data: Uint8Array;
}

interface Deflated {
  readonly raw: Uint8Array;
  readonly crc: number;
  readonly size: number;
}

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

async function deflate(data: Uint8Array): Promise<Deflated> {
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(data);
      controller.close();
    },
  });
  // Cast: Node's and the DOM's typings of CompressionStream disagree on the writable side's chunk
  // type (BufferSource vs Uint8Array), and core is compiled against both.
  const gz = await collect(input.pipeThrough(new CompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>));
  const view = new DataView(gz.buffer, gz.byteOffset, gz.byteLength);
  const crc = view.getUint32(gz.length - 8, true);
  const size = view.getUint32(gz.length - 4, true);
  if (size !== data.length % 0x1_0000_0000) throw new Error('invalid gzip output from CompressionStream (size)');
  return { raw: gz.subarray(gzipHeaderLength(gz), gz.length - 8), crc, size: data.length };
}

/** MS-DOS date and time fields (2-second resolution, from 1980), from the UTC clock. */
function dosDateTime(date: Date): [time: number, day: number] {
  const year = Math.max(1980, Math.min(2107, date.getUTCFullYear()));
  const time = (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | (date.getUTCSeconds() >> 1);
  const day = ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate();
  return [time, day];
}

const encoder = new TextEncoder();

/** The bytes of a ZIP archive holding `parts`, all deflated, stamped with `modified`. */
export async function zipParts(parts: readonly ZipPart[], modified: Date): Promise<Uint8Array> {
  const deflated = await Promise.all(parts.map((part) => deflate(part.data)));
  const names = parts.map((part) => encoder.encode(part.name));
  const [time, day] = dosDateTime(modified);
  let localSize = 0;
  let centralSize = 0;
  for (let i = 0; i < parts.length; i++) {
    localSize += 30 + names[i].length + deflated[i].raw.length;
    centralSize += 46 + names[i].length;
  }
  if (parts.length > 0xffff || localSize + centralSize > 0xffffffff) throw new Error('invalid workbook: too large for a ZIP without ZIP64');
  const out = new Uint8Array(localSize + centralSize + 22);
  const view = new DataView(out.buffer);
  const offsets: number[] = [];
  let at = 0;
  // Version 2.0 (deflate); flag bit 11: names are UTF-8.
  const common = (entry: Deflated, name: Uint8Array, pos: number) => {
    view.setUint16(pos, 20, true);
    view.setUint16(pos + 2, 0x0800, true);
    view.setUint16(pos + 4, 8, true);
    view.setUint16(pos + 6, time, true);
    view.setUint16(pos + 8, day, true);
    view.setUint32(pos + 10, entry.crc, true);
    view.setUint32(pos + 14, entry.raw.length, true);
    view.setUint32(pos + 18, entry.size, true);
    view.setUint16(pos + 22, name.length, true);
    view.setUint16(pos + 24, 0, true);
  };
  for (let i = 0; i < parts.length; i++) {
    offsets.push(at);
    view.setUint32(at, 0x04034b50, true);
    common(deflated[i], names[i], at + 4);
    out.set(names[i], at + 30);
    out.set(deflated[i].raw, at + 30 + names[i].length);
    at += 30 + names[i].length + deflated[i].raw.length;
  }
  const centralStart = at;
  for (let i = 0; i < parts.length; i++) {
    view.setUint32(at, 0x02014b50, true);
    view.setUint16(at + 4, 20, true); // version made by
    common(deflated[i], names[i], at + 6);
    // comment length, disk number, internal and external attributes: 0
    view.setUint32(at + 42, offsets[i], true);
    out.set(names[i], at + 46);
    at += 46 + names[i].length;
  }
  view.setUint32(at, 0x06054b50, true);
  view.setUint16(at + 8, parts.length, true);
  view.setUint16(at + 10, parts.length, true);
  view.setUint32(at + 12, at - centralStart, true);
  view.setUint32(at + 16, centralStart, true);
  return out;
}
