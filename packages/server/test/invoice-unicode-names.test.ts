import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newPerson, register } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { buyWithStripe, usePaymentApp } from './support/payments.js';
import { pdfText } from './support/pdf-text.js';

// Invoices and credit notes print the buyer's name in its own letters (docs/payments.md
// "Invoices"): they are drawn in an embedded Unicode font. Before, with pdfkit's Helvetica,
// "Łukasz" printed "Lukasz", and Cyrillic, Greek or Arabic names only `?`.

const p = usePaymentApp();
const { t } = p;

async function download(user: { key: string }, url: string) {
  const res = await fetch(`${t.url}${url}`, { headers: { 'x-api-key': user.key } });
  assert.equal(res.status, 200);
  return Buffer.from(await res.arrayBuffer());
}

/** An invoice of 10 € and a credit note of 2,50 € for a buyer of that name: both PDFs. */
async function invoiceAndNote(first_name: string, last_name: string) {
  const user = await register(t, { ...newPerson(), first_name, last_name });
  const { session, deliveries } = await buyWithStripe(p, user, 'CREDIT_10');
  assert.deepEqual(deliveries.map((d) => d.status), [200]);
  assert.equal((await p.stripe.refund(p.stripe.sessions.get(session.id)!.payment_intent as string, { amount: 250 })).delivery!.status, 200);
  const list = await t.request('GET', '/api/profile/invoices', { key: user.key });
  assert.equal(list.status, 200);
  return { invoice: await download(user, list.body.items[0].url), note: await download(user, list.body.credit_notes[0].url) };
}

const lines = (pdf: Buffer) => pdfText(pdf).split('\n');

describe(`invoice PDFs and names in other scripts (${TEST_DIALECT})`, () => {
  for (const [script, first, last] of [
    ['Polish', 'Łukasz', 'Wójcik-Żółć'],
    ['Cyrillic', 'Дмитрий', 'Иванов'],
    ['Greek', 'Γιώργος', 'Παπαδόπουλος'],
  ]) {
    it(`a ${script} name prints as typed on the invoice and on the credit note, beside the French amounts`, async () => {
      const { invoice, note } = await invoiceAndNote(first, last);
      const name = `${first} ${last}`;
      for (const [pdf, expected] of [
        [invoice, [name, 'Total HT : 8,33 €', 'TVA (20 %) : 1,67 €', 'Total TTC : 10,00 €', 'Payée le 15/01/2026.']],
        [note, [name, 'Total HT : -2,08 €', 'TVA (20 %) : -0,42 €', 'Total TTC : -2,50 €', 'Montant remboursé : 2,50 €', 'Motif : remboursement']],
      ] as const) {
        const text = lines(pdf);
        for (const line of expected) assert.ok(text.includes(line), `${line} in:\n${text.join('\n')}`);
        assert.ok(text.some((l) => l.startsWith('Date : ') && /^Date : \d\d\/\d\d\/\d{4}$/.test(l)), text.join('\n'));
      }
      assert.ok(lines(note).some((l) => l.startsWith('Facture d’avoir AV-')), lines(note).join('\n'));
    });
  }

  it('an Arabic name of two words prints in reading order on the invoice and the credit note, and beside Latin words', async () => {
    const { invoice, note } = await invoiceAndNote('محمد', 'علي');
    for (const pdf of [invoice, note]) assert.ok(lines(pdf).includes('محمد علي'), lines(pdf).join('\n'));
    // A name with Latin and Arabic words keeps each where it belongs.
    const mixed = await invoiceAndNote('Jean محمد', 'علي Dupont');
    assert.ok(lines(mixed.invoice).includes('Jean محمد علي Dupont'), lines(mixed.invoice).join('\n'));
  });

  it('letters the font lacks (Chinese, most emoji) print as the replacement character �, never as other letters', async () => {
    const { invoice } = await invoiceAndNote('李小龍 Bruce', 'Lee 🦄 😀');
    assert.ok(lines(invoice).includes('��� Bruce Lee � 😀'), lines(invoice).join('\n'));
  });

  it('embeds only the glyphs used: the PDFs stay small, in one typeface (no Helvetica)', async () => {
    const { invoice, note } = await invoiceAndNote('Γιώργος Дмитрий', 'Łukasz محمد');
    for (const pdf of [invoice, note]) {
      assert.ok(pdf.length < 40_000, `${pdf.length} bytes`);
      const fonts = [...pdf.toString('latin1').matchAll(/\/BaseFont \/(\S+)/g)].map((m) => m[1]);
      assert.deepEqual([...new Set(fonts)].map((f) => f.replace(/^[A-Z]{6}\+/, '')).sort(), ['DejaVuSans', 'DejaVuSans-Bold']);
      assert.ok(fonts.every((f) => /^[A-Z]{6}\+/.test(f)), `subset fonts: ${fonts.join(', ')}`);
    }
  });
});

