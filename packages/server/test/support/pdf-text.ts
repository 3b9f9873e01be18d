/**
 * The text of a PDF written by pdfkit with its standard fonts, for the tests: every content
 * stream (inflated when FlateDecode), the strings of its Tj/TJ operators (pdfkit writes them as
 * hex, in WinAnsi encoding), one line per text object.
 */
import { inflateSync } from 'node:zlib';

const winAnsi = new TextDecoder('windows-1252');

function decodeString(token: string): string {
  if (token.startsWith('<')) return winAnsi.decode(Buffer.from(token.slice(1, -1), 'hex'));
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
