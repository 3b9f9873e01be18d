/**
 * Right-to-left words (Arabic, Hebrew…) inside the PDFs' left-to-right French lines
 * (docs/payments.md "Invoices"). pdfkit runs no bidi algorithm: it lays a line out in runs cut
 * after each space, and fontkit shapes each run (Arabic letters joined) and reverses one whose
 * script is right-to-left into visual order, its trailing space included. Drawn as one text, two
 * Arabic words came out in the wrong order ("محمد علي" read "عليمحمد"), and digits or punctuation
 * beside them in the wrong place ("شارع 12 النصر", word 1, 12, word 2, must be drawn from the left
 * word 2, 12, word 1).
 *
 * So a line that has such letters goes through the Unicode Bidirectional Algorithm (bidi-js), in a
 * left-to-right paragraph (a French document): its embedding levels, and its reordering of runs of
 * one level into visual order. The line is then drawn in pieces, left to right, each with its own
 * `doc.text`: a right-to-left word is handed in logical order (fontkit reverses it and joins its
 * letters), never with a space (fontkit would reverse the space to its other side); everything else
 * (Latin text, digits, punctuation, spaces) as it is seen, right-to-left punctuation mirrored ("("
 * drawn ")") — and reversed when fontkit would reverse it (Arabic-Indic digits: "١٢" stays "١٢").
 * Digits inside a right-to-left run have level 2: they read left to right, "12" stays "12".
 *
 * A PDF stores text in the order it is drawn: readers (pdftotext) put right-to-left runs back in
 * reading order, as test/support/pdf-text.ts does.
 */
import type { Bidi } from 'bidi-js';
import { importFor } from '../app/optional-module.js';

// The scripts fontkit lays out right to left (its own list, by Unicode script).
const RTL_SCRIPT =
  /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Cypriot}\p{Script=Kharoshthi}\p{Script=Phoenician}\p{Script=Nko}\p{Script=Lydian}\p{Script=Avestan}\p{Script=Imperial_Aramaic}\p{Script=Inscriptional_Pahlavi}\p{Script=Inscriptional_Parthian}\p{Script=Old_South_Arabian}\p{Script=Old_Turkic}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Meroitic_Cursive}\p{Script=Meroitic_Hieroglyphs}\p{Script=Manichaean}\p{Script=Mende_Kikakui}\p{Script=Nabataean}\p{Script=Old_North_Arabian}\p{Script=Palmyrene}\p{Script=Psalter_Pahlavi}]/u;
// fontkit takes a run's script from its first character of a script of its own (not a digit,
// space or punctuation mark, which are Common).
const OWN_SCRIPT = /[^\p{Script=Common}\p{Script=Inherited}\p{Script=Unknown}]/u;
const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

let engine: Bidi | null = null;

/**
 * Loads bidi-js for `textLine` and `directionalPieces`: by the first PDF drawn, not at every start
 * (app/optional-module.ts). Its factory unpacks the Unicode tables once.
 */
export async function loadBidi(): Promise<void> {
  if (engine) return;
  const { default: factory } = await importFor('invoice PDFs', 'bidi-js', () => import('bidi-js'));
  // bidi-js is CommonJS and its module.exports is the factory, which its types declare as a default
  // export: imported from an ES module, the default is module.exports itself.
  engine ??= (factory as unknown as () => Bidi)();
}

function bidi(): Bidi {
  if (!engine) throw new Error('right-to-left text drawn before loadBidi()');
  return engine;
}

export function hasRightToLeft(line: string): boolean {
  return RTL_SCRIPT.test(line);
}

/** Whether fontkit lays this run (no space inside) out right to left, reversing its glyphs. */
function fontkitReverses(run: string): boolean {
  const own = run.match(OWN_SCRIPT);
  return own !== null && RTL_SCRIPT.test(own[0]);
}

const reversed = (text: string) => Array.from(GRAPHEMES.segment(text), (g) => g.segment).reverse().join('');

// A character of each bidi class, outside the brackets and mirrored characters.
const OF_CLASS: Partial<Record<string, string>> = { L: 'a', R: '\u05D0', AL: '\u0627', EN: '0', AN: '\u0660', ES: '+', ET: '#', CS: ',', ON: '!', NSM: '\u0300', WS: ' ' };

/**
 * The line with each character beyond the first 65,536 (an emoji) as two of its bidi class: bidi-js
 * reads a string by UTF-16 unit and took the two halves of 😀 for left-to-right letters, which cut a
 * right-to-left run in two.
 */
function forBidi(line: string, b: Bidi): string {
  return line.replace(/[\u{10000}-\u{10FFFF}]/gu, (ch) => OF_CLASS[b.getBidiCharTypeName(ch)]?.repeat(2) ?? ch);
}

/** The line's runs of one embedding level in visual order, left to right, each as seen. */
function visualRuns(line: string): { text: string; rtlWord: boolean }[] {
  const b = bidi();
  const typed = forBidi(line, b);
  const embedding = b.getEmbeddingLevels(typed, 'ltr');
  const { levels } = embedding;
  const mirrored = b.getMirroredCharactersMap(typed, levels);
  // A right-to-left word: letters of a right-to-left script and their marks, at an odd level.
  const wordChar = (i: number) => levels[i] % 2 === 1 && ['R', 'AL', 'NSM'].includes(b.getBidiCharTypeName(typed[i]));
  const order = b.getReorderedIndices(typed, embedding);
  const runs: { start: number; end: number; rtlWord: boolean }[] = [];
  // A run of one level stays in one piece in visual order; its visual place is that of its first index.
  const place = new Map<number, number>(order.map((index, at) => [index, at]));
  for (let i = 0; i < line.length; ) {
    let end = i + 1;
    while (end < line.length && levels[end] === levels[i] && wordChar(end) === wordChar(i)) end++;
    runs.push({ start: i, end, rtlWord: wordChar(i) });
    i = end;
  }
  runs.sort((one, other) => place.get(one.start)! - place.get(other.start)!);
  return runs.map(({ start, end, rtlWord }) => {
    // A right-to-left word in logical order (fontkit reverses it); the rest of a right-to-left run
    // (digits are at level 2) reversed and mirrored.
    if (levels[start] % 2 === 0 || rtlWord) return { text: line.slice(start, end), rtlWord };
    let text = '';
    for (let i = start; i < end; i++) text += mirrored.get(i) ?? line[i];
    return { text: reversed(text), rtlWord };
  });
}

/**
 * The line in pieces to draw left to right, each with its own `doc.text`: right-to-left words in
 * logical order, alone; the rest as seen. A piece that ends with a space takes the next one along
 * (pdfkit cuts its runs there anyway), and a space joins a piece that fontkit does not reverse.
 */
export function directionalPieces(line: string): string[] {
  const pieces: string[] = [];
  let lastReversed = false;
  const add = (text: string, fontkitReversed: boolean) => {
    const last = pieces.length - 1;
    const joins = last >= 0 && (pieces[last].endsWith(' ') || (text.startsWith(' ') && !lastReversed));
    if (joins) pieces[last] += text;
    else pieces.push(text);
    lastReversed = fontkitReversed;
  };
  for (const run of visualRuns(line)) {
    if (run.rtlWord) {
      add(run.text, true);
      continue;
    }
    // Spaces apart: fontkit must not reverse a run of digits with the space after it.
    for (const part of run.text.split(/( +)/)) {
      if (!part) continue;
      if (part.startsWith(' ') || !fontkitReverses(part)) add(part, false);
      else add(reversed(part), true);
    }
  }
  return pieces;
}

/**
 * `doc.text(line, x, y, { lineBreak: false })` for a line that may hold right-to-left words: one
 * line, never wrapped; the document's cursor then stands at the start of the next line.
 */
export function textLine(doc: PDFKit.PDFDocument, line: string, x = doc.x, y = doc.y): void {
  if (!hasRightToLeft(line)) {
    doc.text(line, x, y, { lineBreak: false });
    return;
  }
  let at = x;
  for (const piece of directionalPieces(line)) {
    doc.text(piece, at, y, { lineBreak: false });
    at += doc.widthOfString(piece);
  }
  doc.x = x;
}
