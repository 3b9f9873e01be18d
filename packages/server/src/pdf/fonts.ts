import { readFile } from 'node:fs/promises';
import type { Font } from 'fontkit';
import { importFor } from '../app/optional-module.js';

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

export interface PdfFonts {
  regular: Font;
  bold: Font;
  /** Whether both weights draw the code point: a text prints the same whichever it is set in. */
  hasGlyph(codePoint: number): boolean;
}

let loading: Promise<PdfFonts> | undefined;

/**
 * The two fonts, parsed once by fontkit and handed to every document as parsed fonts: given the
 * file's bytes, pdfkit parses the font again for each document, and decoding DejaVu's tables was
 * most of an invoice's drawing time (docs/payments.md "Invoices"). fontkit is loaded with the first
 * document, not at the server's start (app/optional-module.ts).
 */
export function loadPdfFonts(): Promise<PdfFonts> {
  loading ??= (async () => {
    const fontkit = await importFor('invoice PDFs', 'fontkit', () => import('fontkit'));
    const parse = async (file: URL): Promise<Font> => {
      const font = fontkit.create(await readFile(file));
      if (!('layout' in font)) throw new Error(`${file.pathname}: a font collection, not one font`);
      return font;
    };
    const [regular, bold] = await Promise.all([parse(FONT_FILES.regular), parse(FONT_FILES.bold)]);
    withoutTypographicLigatures(regular);
    withoutTypographicLigatures(bold);
    const inBold = new Set(bold.characterSet);
    const covered = new Set(regular.characterSet.filter((code) => inBold.has(code)));
    return { regular, bold, hasGlyph: (codePoint) => covered.has(codePoint) };
  })();
  // A failed load is not kept: the next document tries again.
  loading.catch(() => (loading = undefined));
  return loading;
}

/**
 * Typographic ligatures (OpenType `liga`, `clig`), which fontkit applies by default, are off for
 * every layout of the font. pdfkit writes one ToUnicode entry per glyph in a document, so with
 * them on, "fi" drawn as the ligature glyph and a name typed with the character ﬁ (U+FB01), which
 * the font draws with the same glyph, read back as one another in the same invoice. An invoice is
 * copied and searched more than it is admired. Required ligatures (`rlig`, Arabic's lam-alef)
 * stay: the script needs them, and no other character draws their glyphs.
 */
function withoutTypographicLigatures(font: Font): void {
  type Features = Parameters<Font['layout']>[1];
  const layout = font.layout.bind(font) as (text: string, features: Features, ...rest: unknown[]) => ReturnType<Font['layout']>;
  const off = (features: Features): Record<string, boolean> => ({
    ...(Array.isArray(features) ? Object.fromEntries(features.map((tag) => [tag, true])) : (features ?? {})),
    liga: false,
    clig: false,
  });
  font.layout = ((text: string, features?: Features | string, ...rest: unknown[]) =>
    // fontkit's layout(text, script, language, direction) form: a string where the features go.
    typeof features === 'string' ? layout(text, off(undefined), features, ...rest) : layout(text, off(features), ...rest)) as Font['layout'];
}

/**
 * fontkit keeps a font's glyph objects for the font's life, each with the characters it was first
 * drawn for, and pdfkit writes a document's ToUnicode map (what a reader copies, searches and reads
 * aloud) from them. Shared between documents, a glyph first drawn for the ligature character ﬁ
 * (U+FB01) read back as ﬁ in every later invoice's "fi", and a CI run read a payment reference
 * back without one of its letters. Each document starts with no glyph objects (a document is drawn
 * in one synchronous stretch, invoice-pdf.ts); the decoded tables, the slow part, stay shared.
 */
function forgetGlyphs(font: Font): void {
  const held = font as unknown as { _glyphs?: unknown };
  // A fontkit that keeps them elsewhere would leak again: refused loudly rather than silently.
  if (typeof held._glyphs !== 'object' || held._glyphs === null) throw new Error('fontkit keeps no _glyphs cache to reset: see src/pdf/fonts.ts');
  held._glyphs = {};
}

/**
 * Registers both weights in the document under FONT's names and starts it in the regular one;
 * call it before anything is drawn, in the same synchronous stretch as the whole document.
 */
export function useUnicodeFonts(doc: PDFKit.PDFDocument, fonts: PdfFonts): void {
  forgetGlyphs(fonts.regular);
  forgetGlyphs(fonts.bold);
  // pdfkit takes a parsed fontkit font where its types say a file (PDFFontFactory.open).
  doc.registerFont(FONT.regular, fonts.regular as unknown as ArrayBuffer);
  doc.registerFont(FONT.bold, fonts.bold as unknown as ArrayBuffer);
  doc.font(FONT.regular);
}
