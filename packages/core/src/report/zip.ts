import { defaultDeflater, type DeflatedPart, type Deflater } from './deflate.js';

/**
 * A ZIP writer whose deflate runs natively (report/deflate.ts): Node's zlib when present, else
 * the web-standard CompressionStream. No byte is compressed or checksummed in JavaScript: on a
 * 3,000-trade workbook fflate's pure-JS deflate was 2-3x slower than even CompressionStream.
 */

/** A part to deflate, or one already deflated (or being deflated) by its writer. */
export type ZipPart = { readonly name: string; readonly data: Uint8Array } | { readonly name: string; readonly deflated: DeflatedPart | Promise<DeflatedPart> };

/** MS-DOS date and time fields (2-second resolution, from 1980), from the UTC clock. */
function dosDateTime(date: Date): [time: number, day: number] {
  const year = Math.max(1980, Math.min(2107, date.getUTCFullYear()));
  const time = (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | (date.getUTCSeconds() >> 1);
  const day = ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate();
  return [time, day];
}

const encoder = new TextEncoder();

/** The bytes of a ZIP archive holding `parts`, all deflated, stamped with `modified`. */
export async function zipParts(parts: readonly ZipPart[], modified: Date, deflater: Deflater = defaultDeflater()): Promise<Uint8Array> {
  const deflated = await Promise.all(parts.map((part) => ('data' in part ? deflater.deflate(part.data) : part.deflated)));
  const names = parts.map((part) => encoder.encode(part.name));
  const [time, day] = dosDateTime(modified);
  let localSize = 0;
  let centralSize = 0;
  for (let i = 0; i < parts.length; i++) {
    localSize += 30 + names[i].length + deflated[i].raw.length;
    centralSize += 46 + names[i].length;
  }
  if (parts.length > 0xffff || localSize + centralSize > 0xffffffff || deflated.some((entry) => entry.size > 0xffffffff)) throw new Error('invalid workbook: too large for a ZIP without ZIP64');
  const out = new Uint8Array(localSize + centralSize + 22);
  const view = new DataView(out.buffer);
  const offsets: number[] = [];
  let at = 0;
  // Version 2.0 (deflate); flag bit 11: names are UTF-8.
  const common = (entry: DeflatedPart, name: Uint8Array, pos: number) => {
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
