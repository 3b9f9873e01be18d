import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newPerson, register } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { buyWithStripe, usePaymentApp } from './support/payments.js';
import { pdfText } from './support/pdf-text.js';

// The buyer's name is printed on the invoice as it was typed at sign-up (docs/payments.md
// "Invoices"): it must not add lines of its own to the document, nor come out as other letters.

const p = usePaymentApp();
const { t } = p;

async function invoiceText(user: { key: string; id: number }) {
  const list = await t.request('GET', '/api/profile/invoices', { key: user.key });
  assert.equal(list.status, 200);
  const res = await fetch(`${t.url}${list.body.items[0].url}`, { headers: { 'x-api-key': user.key } });
  assert.equal(res.status, 200);
  return pdfText(new Uint8Array(await res.arrayBuffer()));
}

describe(`invoice PDFs and hostile names (${TEST_DIALECT})`, () => {
  it('a name with line breaks cannot print a line of its own (a forged total), and bidi controls are dropped', async () => {
    const user = await register(t, { ...newPerson(), first_name: 'Jean\nTotal TTC : 0,00 €\r\nTVA', last_name: 'Dupont\u202e\u0007' });
    assert.equal((await buyWithStripe(p, user, 'CREDIT_10')).deliveries[0].status, 200);
    const text = await invoiceText(user);
    const lines = text.split('\n').map((l) => l.trim());
    assert.deepEqual(lines.filter((l) => l.startsWith('Total TTC')), ['Total TTC : 10,00 €'], text);
    assert.ok(lines.includes('Jean Total TTC : 0,00 € TVA Dupont'), text);
    assert.ok(!/[\u0000-\u001f\u202a-\u202e]/.test(lines.join('')), JSON.stringify(text));
  });

  it('a name too long for its column is cut, not wrapped: its end cannot start a line of its own', async () => {
    const user = await register(t, { ...newPerson(), first_name: 'Jean-Baptiste-Alexandre-Maximilien', last_name: 'de La Rochefoucauld Total TTC : 0,00 €' });
    assert.equal((await buyWithStripe(p, user, 'CREDIT_10')).deliveries[0].status, 200);
    const lines = (await invoiceText(user)).split('\n').map((l) => l.trim());
    assert.deepEqual(lines.filter((l) => l.includes('Total TTC')), ['Total TTC : 10,00 €'], lines.join('\n'));
    assert.ok(lines.some((l) => l.startsWith('Jean-Baptiste-Alexandre-Maximilien de La') && l.endsWith('…')), lines.join('\n'));
  });

  it('letters are printed as typed, and those the font lacks as �, never as other letters', async () => {
    const user = await register(t, { ...newPerson(), first_name: 'Łukasz', last_name: 'Dvořák 名前' });
    assert.equal((await buyWithStripe(p, user, 'CREDIT_5')).deliveries[0].status, 200);
    const text = await invoiceText(user);
    assert.ok(text.split('\n').includes('Łukasz Dvořák ��'), text);
  });
});
