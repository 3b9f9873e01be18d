/**
 * Right-to-left words (Arabic, Hebrew…) inside the PDFs' left-to-right French lines
 * (docs/payments.md "Invoices"). pdfkit lays a line out in runs cut after each space, and fontkit
 * shapes each run (Arabic letters joined) and reverses an Arabic or Hebrew one into visual order,
 * its trailing space included: one word alone prints right, but two came out in the wrong order
 * and the space on the wrong side ("محمد علي" read "عليمحمد"). So a line that has such words is
 * drawn in pieces, left to right, each run of right-to-left words last word first, each of its
 * words a piece of its own (fontkit reverses its letters), the space before it at its left.
 * A PDF stores text in the order it is drawn: readers (pdftotext) put such runs back in reading
 * order, as test/support/pdf-text.ts does.
 */
const RTL_LETTER = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}]/u;

/** A word is right-to-left when its first letter is. */
function rightToLeft(word: string): boolean {
  const letter = word.match(/\p{L}/u);
  return letter !== null && RTL_LETTER.test(letter[0]);
}

export function hasRightToLeft(line: string): boolean {
  return RTL_LETTER.test(line);
}

/**
 * The line in pieces to draw left to right, each with a separate `doc.text`: the left-to-right
 * text as it is (the spaces around a right-to-left run with it), and each run of right-to-left
 * words in visual order, its last word first.
 */
export function directionalPieces(line: string): string[] {
  const pieces: string[] = [];
  let ltr: string | null = null;
  let rtl: string[] = [];
  const endRun = () => {
    rtl.reverse().forEach((word, i) => pieces.push(i === 0 ? word : ` ${word}`));
    rtl = [];
  };
  line.split(' ').forEach((word, i) => {
    if (rightToLeft(word)) {
      if (ltr !== null) pieces.push(i > 0 ? `${ltr} ` : ltr);
      ltr = null;
      rtl.push(word);
    } else if (rtl.length) {
      endRun();
      ltr = ` ${word}`;
    } else ltr = ltr === null ? word : `${ltr} ${word}`;
  });
  if (rtl.length) endRun();
  else if (ltr !== null) pieces.push(ltr);
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
