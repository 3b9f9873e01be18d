import { readFileSync } from 'node:fs';
import { fontCoverage } from './font-coverage.js';

/**
 * The one typeface of the server's PDFs (invoices, credit notes): DejaVu Sans, regular and bold,
 * shipped in `fonts/` beside this module (license in `fonts/LICENSE`; the build copies them to
 * dist/, scripts/copy-assets.mjs). pdfkit's built-in Helvetica writes only WinAnsi, so a name in
 * Polish, Cyrillic, Greek or Arabic came out as `?` or other letters; this one covers them, and
 * pdfkit embeds only the glyphs a document uses (docs/payments.md "Invoices").
 */
export const FONT = { regular: 'bt-sans', bold: 'bt-sans-bold' } as const;

/** Read from here rather than from the system's fonts: a fresh machine may have none. */
export const FONT_FILES = {
  regular: new URL('./fonts/DejaVuSans.ttf', import.meta.url),
  bold: new URL('./fonts/DejaVuSans-Bold.ttf', import.meta.url),
} as const;

/** What a document prints in place of a character the font has no glyph for (CJK, most emoji). */
export const MISSING_GLYPH = '\uFFFD';

interface Loaded {
  regular: Buffer;
  bold: Buffer;
  /** Code points both weights draw: a text prints the same whichever it is set in. */
  covered: Set<number>;
}
let loaded: Loaded | undefined;

/** Read once, at the first document: about 1.4 MB, which every document then reuses. */
function fonts(): Loaded {
  if (!loaded) {
    const regular = readFileSync(FONT_FILES.regular);
    const bold = readFileSync(FONT_FILES.bold);
    const inBold = fontCoverage(bold);
    loaded = { regular, bold, covered: new Set([...fontCoverage(regular)].filter((code) => inBold.has(code))) };
  }
  return loaded;
}

/** Registers both weights in the document under FONT's names and starts it in the regular one. */
export function useUnicodeFonts(doc: PDFKit.PDFDocument): void {
  const { regular, bold } = fonts();
  doc.registerFont(FONT.regular, regular);
  doc.registerFont(FONT.bold, bold);
  doc.font(FONT.regular);
}

export function hasGlyph(codePoint: number): boolean {
  return fonts().covered.has(codePoint);
}
