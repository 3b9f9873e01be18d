import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import PDFDocument from 'pdfkit';
import { renderInvoicePdf } from '../src/payments/invoice-pdf.js';
import { FONT, loadPdfFonts, useUnicodeFonts } from '../src/pdf/fonts.js';
import { directionalPieces, loadBidi, textLine } from '../src/pdf/rtl.js';
import { pdfVisualLines } from './support/pdf-text.js';
import { sampleInvoice } from './support/sample-invoice.js';

// The order in which a line mixing right-to-left words (Arabic, Hebrew) with digits, punctuation
// and French is drawn (src/pdf/rtl.ts, docs/payments.md "Invoices"): the Unicode bidirectional
// algorithm in a left-to-right paragraph. Before, anything not a letter broke a right-to-left run:
// "شارع 12 النصر" (word 1, 12, word 2) was drawn from the left word 1, 12, word 2, so that it read
// from the right word 2 first. Lines are read back as seen: pieces by x, glyphs as drawn.

/** A right-to-left word as it is seen: its letters from right to left, so reversed left to right. */
const seen = (word: string) => [...word].reverse().join('');

// Each line as typed (logical order) and as it must be seen, left to right.
const CASES: [string, string, string][] = [
  ['an Arabic address with a number', 'شارع 12 النصر', `${seen('النصر')} 12 ${seen('شارع')}`],
  ['an Arabic address with Arabic-Indic digits', 'شارع ١٢ النصر', `${seen('النصر')} ١٢ ${seen('شارع')}`],
  ['a Hebrew address with a number and a comma', 'רחוב הרצל 12, תל אביב', `${seen('אביב')} ${seen('תל')} ,12 ${seen('הרצל')} ${seen('רחוב')}`],
  ['a comma after an Arabic run, then French', 'محمد علي, Paris', `${seen('علي')} ${seen('محمد')}, Paris`],
  ['an Arabic run in parentheses in French', 'Jean (محمد علي)', `Jean (${seen('علي')} ${seen('محمد')})`],
  ['parentheses inside an Arabic run (mirrored)', 'محمد (علي) حسن', `${seen('حسن')} (${seen('علي')}) ${seen('محمد')}`],
  ['a French line with an Arabic name, an Arabic comma and an address', 'Client : محمد علي، 12 شارع النصر, Casablanca', `Client : ${seen('النصر')} ${seen('شارع')} 12 ،${seen('علي')} ${seen('محمد')}, Casablanca`],
  ['an emoji between Arabic words', 'محمد 😀 علي', `${seen('علي')} 😀 ${seen('محمد')}`],
  ['Arabic words between Latin ones', 'Jean محمد علي Dupont', `Jean ${seen('علي')} ${seen('محمد')} Dupont`],
  ['Hebrew words after a Latin one', 'Dvořák שלום עולם', `Dvořák ${seen('עולם')} ${seen('שלום')}`],
];

async function drawn(lines: string[]): Promise<Buffer> {
  const fonts = await loadPdfFonts();
  const doc = new PDFDocument({ size: 'A4', margin: 56 });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  useUnicodeFonts(doc, fonts);
  doc.font(FONT.regular).fontSize(10);
  lines.forEach((line, i) => textLine(doc, line, 56, 80 + i * 20));
  doc.end();
  return done;
}

describe('right-to-left text in the PDFs, in the order of the bidirectional algorithm', () => {
  before(loadBidi);

  it('cuts a line into pieces drawn left to right: right-to-left words alone and in logical order, digits as they read', () => {
    // fontkit reverses each right-to-left word itself; digits and spaces are handed as seen.
    assert.deepEqual(directionalPieces('Jean Dupont'), ['Jean Dupont']);
    assert.deepEqual(directionalPieces('محمد'), ['محمد']);
    assert.deepEqual(directionalPieces('محمد علي'), ['علي', ' محمد']);
    assert.deepEqual(directionalPieces('شارع 12 النصر'), ['النصر', ' 12 شارع']);
    assert.deepEqual(directionalPieces('Jean محمد علي Dupont'), ['Jean علي', ' محمد', ' Dupont']);
    assert.deepEqual(directionalPieces('Jean (محمد علي)'), ['Jean (', 'علي', ' محمد', ')']);
    assert.deepEqual(directionalPieces('Dvořák שלום עולם'), ['Dvořák עולם', ' שלום']);
    // Arabic-Indic digits are of the Arabic script: fontkit reverses them too, so they go reversed.
    assert.deepEqual(directionalPieces('شارع ١٢ النصر'), ['النصر', ' ٢١', ' شارع']);
  });

  for (const [what, line, expected] of CASES) {
    it(`draws ${what} in visual order: ${line}`, async () => {
      const [seenLine] = pdfVisualLines(await drawn([line]));
      assert.equal(seenLine, expected);
    });
  }

  it('draws the buyer and the seller of an invoice the same way', async () => {
    const content = sampleInvoice({
      seller: { name: 'bt SAS', address: ['רחוב הרצל 12, תל אביב'], email: null, vat_id: null, registration: null },
      buyer: { name: 'شارع 12 النصر', email: 'client@example.com', user_id: 7 },
      line: { offer_id: 'CREDIT_10', description: 'Crédits : 10 crédits', credits: 10, period_end: null },
      provider_reference: 'pi_1',
      payment_reference: 'ref-1',
    });
    const lines = pdfVisualLines(await renderInvoicePdf(content));
    assert.ok(lines.includes(`${seen('النصر')} 12 ${seen('شارع')}`), lines.join('\n'));
    assert.ok(lines.includes(`${seen('אביב')} ${seen('תל')} ,12 ${seen('הרצל')} ${seen('רחוב')}`), lines.join('\n'));
  });
});
