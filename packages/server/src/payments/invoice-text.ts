/**
 * What an invoice may print of a text it did not write (the buyer's name, a provider's reference):
 * one line, in the letters its font has. A name is kept as typed at sign-up, line breaks included:
 * drawn as it was, "Jean\nTotal TTC : 0,00 €" printed a second total on the invoice; a letter the
 * font lacks would be drawn as an empty box that copies as U+0000 (docs/payments.md "Invoices").
 */
import { MISSING_GLYPH, type PdfFonts } from '../pdf/fonts.js';

// Variation selectors only choose a presentation (text or emoji) of the character before them.
const VARIATION_SELECTOR = /[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/u;

export function printable(text: string, fonts: Pick<PdfFonts, 'hasGlyph'>): string {
  let out = '';
  // Control characters and line or paragraph separators become spaces; format characters (bidi
  // overrides, zero-width joiners, the soft hyphen) go. NFC first: a letter typed as a base and a
  // combining accent prints as the one precomposed glyph the font has.
  for (const ch of text.normalize('NFC').replace(/[\p{Cc}\p{Zl}\p{Zp}]/gu, ' ')) {
    if (/\p{Cf}/u.test(ch) || VARIATION_SELECTOR.test(ch)) continue;
    out += fonts.hasGlyph(ch.codePointAt(0)!) ? ch : MISSING_GLYPH;
  }
  return out.replace(/ {2,}/g, ' ').trim();
}
