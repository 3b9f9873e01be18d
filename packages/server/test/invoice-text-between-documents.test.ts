/**
 * The text a reader copies, searches and reads aloud from an invoice is that invoice's own, whatever
 * was drawn before it in the process: the two fonts are parsed once and shared (src/pdf/fonts.ts),
 * and fontkit's glyph objects, which carry the characters pdfkit writes into each document's
 * ToUnicode map, are not. A CI run read a payment reference back without one of its letters.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { renderInvoicePdf } from '../src/payments/invoice-pdf.js';
import { pdfText } from './support/pdf-text.js';
import { sampleInvoice } from './support/sample-invoice.js';

const INVOICE = sampleInvoice();

const lineOf = (text: string, start: string) => text.split('\n').find((line) => line.startsWith(start));

/** Buyers' names and references that make the font substitute, compose, decompose or miss glyphs. */
const BEFORE = ['ﬁ ﬂ ﬀ ﬃ', 'Wójcik-Żółć', 'Z\u0307 Z\u030C e\u0301\u0302', 'محمد علي', 'ก้ำ नमस्ते', '李小龍 🦄 👨‍👩‍👧', 'a\u200Db\u200Cc \u202Eevil\u202C', 'ǅ ﷺ ﻻ'];

describe("an invoice's text is its own, whatever the process drew before", () => {
  it('after invoices that draw ligature characters, composed and decomposed letters, other scripts and missing glyphs', async () => {
    const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const check = async (when: string) => {
      const text = pdfText(await renderInvoicePdf({ ...INVOICE, payment_reference: letters, provider_reference: 'fi fl ff ffi ffl' }));
      assert.equal(lineOf(text, 'Référence bt'), `Référence bt : ${letters}`, when);
      assert.equal(lineOf(text, 'Référence du paiement'), 'Référence du paiement : fi fl ff ffi ffl', when);
    };
    await check('first in the process');
    for (const name of BEFORE) {
      const text = pdfText(await renderInvoicePdf({ ...INVOICE, buyer: { ...INVOICE.buyer, name }, provider_reference: name }));
      assert.ok(text.includes('Référence bt : pay_Rlp2ZX7kb2q-onBo'), `${name}:\n${text}`);
      await check(`after an invoice for ${JSON.stringify(name)}`);
    }
    // And the ligature characters themselves still read back as drawn, after the plain letters.
    assert.equal(lineOf(pdfText(await renderInvoicePdf({ ...INVOICE, provider_reference: 'ﬁ ﬂ' })), 'Référence du paiement'), 'Référence du paiement : ﬁ ﬂ');
  });

  it('within one invoice, a buyer named with the character ﬁ and a "fi" elsewhere each read back as typed', async () => {
    // The letters f and i are drawn as two glyphs (no typographic ligature, src/pdf/fonts.ts), so
    // the ligature glyph is drawn only for U+FB01 and its ToUnicode entry is that character.
    for (const [name, reference] of [['Joséphine ﬁlle', 'ref_fi_fl_ffi'], ['ﬂ ﬀ ﬃ ﬄ Ofﬁce', 'office-fluffy']]) {
      const text = pdfText(await renderInvoicePdf({ ...INVOICE, buyer: { ...INVOICE.buyer, name }, provider_reference: reference }));
      assert.ok(text.includes(name), `${name}:\n${text}`);
      assert.equal(lineOf(text, 'Référence du paiement'), `Référence du paiement : ${reference}`);
      assert.equal(lineOf(text, 'Désignation'), 'Désignation', 'a heading drawn in bold reads back as typed');
    }
  });

  it('random payment references, two invoices at a time, after all of the above', async () => {
    const names = BEFORE;
    for (let round = 0; round < 40; round++) {
      const references = [0, 1].map(() => `pay_${randomBytes(12).toString('base64url')}`);
      const pdfs = await Promise.all(references.map((payment_reference, i) => renderInvoicePdf({ ...INVOICE, payment_reference, buyer: { ...INVOICE.buyer, name: names[(round + i) % names.length] } })));
      pdfs.forEach((pdf, i) => assert.equal(lineOf(pdfText(pdf), 'Référence bt'), `Référence bt : ${references[i]}`));
    }
  });
});
