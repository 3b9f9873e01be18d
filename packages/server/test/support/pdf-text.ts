/**
 * The text of a PDF written by pdfkit with its standard fonts, for the tests: every content
 * stream (inflated when FlateDecode), the strings of its Tj/TJ operators (pdfkit writes them as
 * hex, in WinAnsi encoding), one line per text object.
 */
import { inflateSync } from 'node:zlib';

// WinAnsi (cp1252) 0x80-0x9F; the rest is Latin-1. Node's TextDecoder may read 'windows-1252'
// as Latin-1 (without full ICU), so the table is here.
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';
const winAnsi = (bytes: Buffer) => Array.from(bytes, (b) => (b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80] : String.fromCharCode(b))).join('');

function decodeString(token: string): string {
  if (token.startsWith('<')) return winAnsi(Buffer.from(token.slice(1, -1), 'hex'));
  return token.slice(1, -1).replace(/\\([nrtbf()\\])/g, (_, c: string) => ({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' })[c] ?? c);
}

export function pdfText(pdf: Uint8Array): string {
  const bytes = Buffer.from(pdf);
  const latin = bytes.toString('latin1');
  const lines: string[] = [];
  const streamPattern = /<<([^]*?)>>\s*stream\r?\n/g;
  for (let match = streamPattern.exec(latin); match; match = streamPattern.exec(latin)) {
    const start = match.index + match[0].length;
    const end = latin.indexOf('endstream', start);
    if (end < 0) break;
    let content = bytes.subarray(start, end);
    if (/FlateDecode/.test(match[1])) {
      try {
        content = inflateSync(content);
      } catch {
        continue;
      }
    }
    const text = content.toString('latin1');
    for (const block of text.split(/\bET\b/)) {
      const parts: string[] = [];
      for (const op of block.matchAll(/(\[[^\]]*\]|<[0-9a-fA-F]*>|\((?:\\.|[^\\)])*\))\s*T[Jj]/g)) {
        for (const s of op[1].matchAll(/<[0-9a-fA-F]*>|\((?:\\.|[^\\)])*\)/g)) parts.push(decodeString(s[0]));
      }
      if (parts.length) lines.push(parts.join(''));
    }
  }
  return lines.join('\n');
}
