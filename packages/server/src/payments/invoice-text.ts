/**
 * What an invoice may print of a text it did not write (the buyer's name, a provider's reference):
 * one line, in the letters the built-in Helvetica has (WinAnsi). A name is kept as typed at sign-up,
 * line breaks included: drawn as it was, "Jean\nTotal TTC : 0,00 €" printed a second total on the
 * invoice, and letters outside WinAnsi came out as other letters (docs/payments.md "Invoices").
 */

// WinAnsi (cp1252) is Latin-1's printable range plus these, in 0x80-0x9F.
const CP1252_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
// Letters whose decomposition keeps no Latin base letter.
const LATIN_BASE: Record<string, string> = { Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', ı: 'i', Ħ: 'H', ħ: 'h', Ŧ: 'T', ŧ: 't', ĸ: 'k', Ŋ: 'N', ŋ: 'n', ẞ: 'SS' };

function winAnsi(ch: string): boolean {
  const code = ch.codePointAt(0)!;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || CP1252_EXTRA.has(ch);
}

export function printable(text: string): string {
  let out = '';
  // Control characters and line or paragraph separators become spaces; format characters (bidi
  // overrides, zero-width joiners, the soft hyphen) go.
  for (const ch of text.replace(/[\p{Cc}\p{Zl}\p{Zp}]/gu, ' ')) {
    if (/\p{Cf}/u.test(ch)) continue;
    if (winAnsi(ch)) {
      out += ch;
      continue;
    }
    const bare = LATIN_BASE[ch] ?? ch.normalize('NFKD').replace(/\p{M}/gu, '');
    out += bare !== '' && [...bare].every(winAnsi) ? bare : '?';
  }
  return out.replace(/ {2,}/g, ' ').trim();
}
