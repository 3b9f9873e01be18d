import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { register } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { pdfText } from './support/pdf-text.js';
import { buyWithCrypto, buyWithPayPal, buyWithStripe, usePaymentApp } from './support/payments.js';

// Credit notes (docs/payments.md "Credit notes"): a refund of an invoiced payment issues a
// numbered "facture d'avoir" for the refunded share, once. Before, a refund issued none.

const p = usePaymentApp();
const { t } = p;

const notesOf = (userId: number) => t.db.models.CreditNote.findAll({ where: { userId }, order: [['number', 'ASC']] });
const invoiceOf = async (userId: number) => (await t.db.models.Invoice.findOne({ where: { userId } }))!;

async function stripePack(offer: string) {
  const user = await register(t);
  const { session, deliveries } = await buyWithStripe(p, user, offer);
  assert.deepEqual(deliveries.map((d) => d.status), [200]);
  return { user, intent: p.stripe.sessions.get(session.id)!.payment_intent as string };
}

/** Every credit note's number, in order: 1…n without a gap or a double. */
async function assertGapless() {
  const numbers = (await t.db.models.CreditNote.findAll({ attributes: ['number'], order: [['number', 'ASC']] })).map((n) => n.number);
  assert.deepEqual(numbers, Array.from({ length: numbers.length }, (_, i) => i + 1));
}

describe(`credit notes (${TEST_DIALECT})`, () => {
  it('a Stripe partial then full refund issues two notes with consecutive numbers and the refunded amounts; replays and ten copies at once issue nothing more', async () => {
    const { user, intent } = await stripePack('CREDIT_10'); // 10 €
    const partial = await p.stripe.refund(intent, { amount: 300 });
    assert.equal(partial.delivery!.status, 200);
    const full = await p.stripe.refund(intent);
    assert.equal(full.delivery!.status, 200);
    assert.equal((await p.stripe.send(partial.event)).status, 200);
    const copies = await Promise.all(Array.from({ length: 10 }, () => p.stripe.send(full.event)));
    assert.deepEqual([...new Set(copies.map((c) => c.status))], [200]);
    const notes = await notesOf(user.id);
    const invoice = await invoiceOf(user.id);
    assert.deepEqual(notes.map((n) => [n.amountCents, n.creditedCents, n.currency, n.invoiceId]), [[300, 300, 'EUR', invoice.id], [700, 1000, 'EUR', invoice.id]]);
    assert.equal(notes[1].number, notes[0].number + 1);
    assert.match(notes[0].label, /^AV-\d{6}$/);
    assert.ok(notes.every((n) => n.ledgerReference?.startsWith('stripe:')), 'each note names its ledger row');
    await assertGapless();
  });

  it('a PayPal refund and a crypto refund issue one note each', async () => {
    const buyer = await register(t);
    const { order, capture } = await buyWithPayPal(p, buyer, 'CREDIT_20');
    assert.equal(capture.status, 200, capture.text);
    const refund = await p.paypal.refund(p.paypal.captureOf(order.id));
    assert.equal(refund.delivery!.status, 200);
    assert.equal((await p.paypal.send(refund.event)).status, 200);
    assert.deepEqual((await notesOf(buyer.id)).map((n) => n.amountCents), [2000]);

    const other = await register(t);
    const crypto = await buyWithCrypto(p, other, 'CREDIT_20');
    assert.equal(crypto.ipn.status, 200);
    assert.equal((await p.nowpayments.notify(crypto.order.id, 'refunded')).status, 200);
    assert.equal((await p.nowpayments.notify(crypto.order.id, 'refunded')).status, 200);
    const notes = await notesOf(other.id);
    assert.equal(notes.length, 1);
    assert.equal(notes[0].amountCents, JSON.parse((await invoiceOf(other.id)).content).total_cents);
    await assertGapless();
  });

  it('a dispute issues a note only once lost; one won issues none', async () => {
    const won = await stripePack('CREDIT_5');
    assert.equal((await p.stripe.dispute(won.intent, 'needs_response')).delivery!.status, 200);
    assert.equal((await p.stripe.dispute(won.intent, 'won')).delivery!.status, 200);
    assert.equal((await notesOf(won.user.id)).length, 0);
    const lost = await stripePack('CREDIT_5');
    assert.equal((await p.stripe.dispute(lost.intent, 'needs_response')).delivery!.status, 200);
    assert.equal((await notesOf(lost.user.id)).length, 0, 'an open dispute may still be won');
    assert.equal((await p.stripe.dispute(lost.intent, 'lost')).delivery!.status, 200);
    assert.deepEqual((await notesOf(lost.user.id)).map((n) => [n.amountCents, n.ledgerReference]), [[500, null]]);
  });

  it('the PDF downloads for its owner (listed beside the invoices), not for another user', async () => {
    const { user, intent } = await stripePack('CREDIT_10');
    assert.equal((await p.stripe.refund(intent, { amount: 250 })).delivery!.status, 200);
    const list = await t.request('GET', '/api/profile/invoices', { key: user.key });
    assert.equal(list.status, 200);
    assert.equal(list.body.items.length, 1);
    const [note] = list.body.credit_notes;
    const invoice = list.body.items[0];
    assert.deepEqual([note.invoice_label, note.amount_eur, note.url], [invoice.label, 2.5, `/api/profile/invoices/credit-notes/${note.number}`]);
    const res = await fetch(`${t.url}${note.url}.pdf?token=${user.key}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/pdf');
    assert.match(res.headers.get('content-disposition') ?? '', new RegExp(`avoir-${note.label}\\.pdf`));
    const text = pdfText(new Uint8Array(await res.arrayBuffer()));
    for (const expected of [`Facture d’avoir ${note.label}`, `Avoir sur la facture n° ${invoice.label}`, 'Total HT : -2,08 €', 'TVA (20 %) : -0,42 €', 'Total TTC : -2,50 €', 'Montant remboursé : 2,50 €', 'bt SAS', 'Pack 12 crédits : 12 crédits (offre CREDIT_10)']) {
      assert.ok(text.includes(expected), `${expected} in:\n${text}`);
    }
    const stranger = await register(t);
    for (const path of [note.url, '/api/profile/invoices/credit-notes/abc', '/api/profile/invoices/credit-notes/99999999']) {
      const denied = await t.request('GET', path, { key: path === note.url ? stranger.key : user.key });
      assert.deepEqual([denied.status, denied.body.detail], [404, 'Avoir introuvable.'], path);
    }
    assert.deepEqual((await t.request('GET', '/api/profile/invoices', { key: stranger.key })).body.credit_notes, []);
  });

  it('numbers stay without gaps when refunds of different payments arrive at once', async () => {
    const packs = [];
    for (let i = 0; i < 6; i++) packs.push(await stripePack(i % 2 ? 'CREDIT_5' : 'CREDIT_10'));
    const events = await Promise.all(packs.map((pack) => p.stripe.refund(pack.intent, { send: false })));
    const deliveries = await Promise.all(events.map(({ event }) => p.stripe.send(event)));
    assert.deepEqual([...new Set(deliveries.map((d) => d.status))], [200]);
    for (const pack of packs) assert.equal((await notesOf(pack.user.id)).length, 1);
    await assertGapless();
  });
});
