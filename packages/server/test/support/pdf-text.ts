/**
 * The text of a PDF written by pdfkit, for the tests: the page content streams (inflated when
 * FlateDecode), the strings of their Tj/TJ operators, one line per baseline (consecutive text
 * objects on the same one join, as the pieces of a line with right-to-left words do).
 * `pdfVisualLines` gives each line as seen instead: its text objects ordered by their x position,
 * each one's glyphs as drawn, left to right, nothing put back in reading order.
 *
 * pdfkit writes strings as hex: in WinAnsi with a standard font (Helvetica), as 2-byte glyph ids
 * with an embedded font (Type0, Identity-H), read back through the font's ToUnicode CMap. Text is
 * stored in the order it is drawn; as readers do, a run of right-to-left letters is put back in
 * reading order (src/pdf/rtl.ts).
 */
import { inflateSync } from 'node:zlib';

// WinAnsi (cp1252) 0x80-0x9F; the rest is Latin-1. Node's TextDecoder may read 'windows-1252'
// as Latin-1 (without full ICU), so the table is here.
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';
const winAnsi = (bytes: Buffer) => Array.from(bytes, (b) => (b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80] : String.fromCharCode(b))).join('');

type ToUnicode = Map<number, string>;

const hexBytes = (hex: string) => Buffer.from(hex.replace(/\s+/g, ''), 'hex');
const utf16 = (hex: string) => hexBytes(hex).swap16().toString('utf16le');

/** The objects of the file: number → dictionary text and stream bytes (inflated). */
function objects(bytes: Buffer): Map<number, { dict: string; stream: Buffer | null }> {
  const latin = bytes.toString('latin1');
  const found = new Map<number, { dict: string; stream: Buffer | null }>();
  const pattern = /(\d+) 0 obj\b/g;
  for (let match = pattern.exec(latin); match; match = pattern.exec(latin)) {
    const start = match.index + match[0].length;
    const streamAt = latin.indexOf('stream', start);
    const end = latin.indexOf('endobj', start);
    if (end < 0) break;
    if (streamAt < 0 || streamAt > end) {
      found.set(Number(match[1]), { dict: latin.slice(start, end), stream: null });
      continue;
    }
    const dict = latin.slice(start, streamAt);
    const dataStart = streamAt + 'stream'.length + (latin[streamAt + 6] === '\r' ? 2 : 1);
    let stream: Buffer = bytes.subarray(dataStart, latin.indexOf('endstream', dataStart));
    if (/FlateDecode/.test(dict)) {
      try {
        stream = inflateSync(stream);
      } catch {
        stream = Buffer.alloc(0);
      }
    }
    found.set(Number(match[1]), { dict, stream });
    pattern.lastIndex = end;
  }
  return found;
}

/** The bfchar and bfrange entries of a ToUnicode CMap (pdfkit writes ranges with arrays). */
function parseToUnicode(cmap: string): ToUnicode {
  const map: ToUnicode = new Map();
  for (const [, body] of cmap.matchAll(/beginbfchar([^]*?)endbfchar/g)) {
    for (const [, code, to] of body.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F\s]+)>/g)) map.set(parseInt(code, 16), utf16(to));
  }
  for (const [, body] of cmap.matchAll(/beginbfrange([^]*?)endbfrange/g)) {
    for (const [, lo, hi, list, to] of body.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(?:\[([^\]]*)\]|<([0-9a-fA-F\s]+)>)/g)) {
      const first = parseInt(lo, 16);
      if (list !== undefined) {
        [...list.matchAll(/<([0-9a-fA-F\s]*)>/g)].forEach(([, hex], i) => map.set(first + i, utf16(hex)));
        continue;
      }
      const start = hexBytes(to);
      for (let code = first; code <= parseInt(hi, 16); code++) {
        const dest = Buffer.from(start);
        dest.writeUInt16BE(dest.readUInt16BE(dest.length - 2) + code - first, dest.length - 2);
        map.set(code, dest.swap16().toString('utf16le'));
      }
    }
  }
  return map;
}

function decodeString(token: string, toUnicode: ToUnicode | undefined): string {
  if (!token.startsWith('<')) return token.slice(1, -1).replace(/\\([nrtbf()\\])/g, (_, c: string) => ({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' })[c] ?? c);
  const bytes = hexBytes(token.slice(1, -1));
  if (!toUnicode) return winAnsi(bytes);
  let text = '';
  for (let i = 0; i + 1 < bytes.length; i += 2) text += toUnicode.get(bytes.readUInt16BE(i)) ?? '\uFFFD';
  return text;
}

const RTL_RUN = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}](?:[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{M} \u00A0]*[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{M}])?/gu;
const readingOrder = (line: string) => line.replace(RTL_RUN, (run) => Array.from(run).reverse().join(''));

/** The text objects of the pages, in drawing order: their baseline, x position and text. */
function textObjects(pdf: Uint8Array): { x: number | null; y: string | null; text: string }[] {
  const all = objects(Buffer.from(pdf));
  const fonts = new Map<string, ToUnicode>();
  for (const { dict } of all.values()) {
    for (const [, resources] of dict.matchAll(/\/Font\s*<<([^>]*)>>/g)) {
      for (const [, name, ref] of resources.matchAll(/\/([^\s/]+)\s+(\d+)\s+0\s+R/g)) {
        const cmapRef = all.get(Number(ref))?.dict.match(/\/ToUnicode\s+(\d+)\s+0\s+R/);
        const cmap = cmapRef ? all.get(Number(cmapRef[1]))?.stream : null;
        if (cmap) fonts.set(name, parseToUnicode(cmap.toString('latin1')));
      }
    }
  }

  const found: { x: number | null; y: string | null; text: string }[] = [];
  for (const { dict } of all.values()) {
    const contents = /\/Type\s*\/Page\b/.test(dict) ? dict.match(/\/Contents\s+(\d+)\s+0\s+R/) : null;
    const stream = contents ? all.get(Number(contents[1]))?.stream : null;
    if (!stream) continue;
    for (const block of stream.toString('latin1').split(/\bET\b/)) {
      let font: ToUnicode | undefined;
      let text = '';
      const ops = /\/([^\s/]+)\s+[-\d.]+\s+Tf|(\[[^\]]*\]|<[0-9a-fA-F]*>|\((?:\\.|[^\\)])*\))\s*T[Jj]/g;
      for (const op of block.matchAll(ops)) {
        if (op[1] !== undefined) font = fonts.get(op[1]);
        else for (const s of op[2].matchAll(/<[0-9a-fA-F]*>|\((?:\\.|[^\\)])*\)/g)) text += decodeString(s[0], font);
      }
      if (!text) continue;
      const at = block.match(/([-\d.]+)\s+([-\d.]+)\s+Tm/);
      found.push({ x: at ? Number(at[1]) : null, y: at?.[2] ?? null, text });
    }
  }
  return found;
}

/** Consecutive text objects on one baseline: the lines of the pages. */
function baselines(pdf: Uint8Array) {
  const lines: { y: string | null; pieces: { x: number | null; text: string }[] }[] = [];
  for (const { x, y, text } of textObjects(pdf)) {
    const last = lines[lines.length - 1];
    if (last && y !== null && last.y === y) last.pieces.push({ x, text });
    else lines.push({ y, pieces: [{ x, text }] });
  }
  return lines;
}

export function pdfText(pdf: Uint8Array): string {
  return baselines(pdf)
    .map((line) => readingOrder(line.pieces.map((piece) => piece.text).join('')))
    .join('\n');
}

/** Each line as seen: its pieces by x position, left to right, with the glyphs as drawn. */
export function pdfVisualLines(pdf: Uint8Array): string[] {
  return baselines(pdf).map((line) =>
    [...line.pieces]
      .sort((a, b) => (a.x ?? 0) - (b.x ?? 0))
      .map((piece) => piece.text)
      .join(''),
  );
}
