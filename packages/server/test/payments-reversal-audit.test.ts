import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { register } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { buyWithCrypto, buyWithPayPal, buyWithStripe, paymentRows, reversalRows, usePaymentApp } from './support/payments.js';
import { balance } from './support/work.js';

// Refund and dispute notices whose ledger reference is one already used for another amount
// (docs/payments.md "Refunds and disputes", "Once, in any order").

const p = usePaymentApp();
const { t } = p;

async function paidPack(offer: string) {
  const user = await register(t);
  const { session, deliveries } = await buyWithStripe(p, user, offer);
  assert.deepEqual(deliveries.map((d) => d.status), [200]);
  const intent = p.stripe.sessions.get(session.id)!.payment_intent as string;
  return { user, intent };
}

const reversals = (userId: number) => reversalRows(t, userId);

describe(`dispute amounts that change while open (${TEST_DIALECT})`, () => {
  it('a dispute raised while open takes the difference, and won gives back exactly what was taken', async () => {
    const { user, intent } = await paidPack('CREDIT_20'); // 20 €, 25 credits
    const first = await p.stripe.dispute(intent, 'needs_response', { send: false });
    first.event.data.object.amount = 1000; // 10 € of 20: 13 credits (rounded up)
    assert.equal((await p.stripe.send(first.event)).status, 200);
    assert.equal(await balance(t, user.id), 12);
    const raised = await p.stripe.dispute(intent, 'needs_response', { send: false });
    raised.event.data.object.amount = 2000; // the whole charge now: 12 more
    // Ten copies at once, the first delivery included: the difference moves once.
    const answers = await Promise.all(Array.from({ length: 10 }, () => p.stripe.send(raised.event)));
    assert.deepEqual([...new Set(answers.map((a) => a.status))], [200], JSON.stringify(answers.map((a) => a.body)));
    assert.equal(await balance(t, user.id), 0);
    let [row] = await paymentRows(t, user.id);
    assert.deepEqual([row.creditsReversed, row.creditsShortfall], [25, 0]);
    // Replays of either change nothing more.
    assert.equal((await p.stripe.send(raised.event)).status, 200);
    assert.equal(await balance(t, user.id), 0);
    const won = await p.stripe.dispute(intent, 'won');
    assert.equal(won.delivery!.status, 200);
    assert.equal(await balance(t, user.id), 25, 'won gives back the 25 taken, no more');
    [row] = await paymentRows(t, user.id);
    assert.deepEqual([row.creditsReversed, row.creditsShortfall], [0, 0]);
    assert.deepEqual(await reversals(user.id), [['spend', 'payment_dispute', -13], ['spend', 'payment_dispute', -12], ['grant', 'dispute_won', 25]]);
  });
});

describe(`crypto refunds of another payment of the same invoice (${TEST_DIALECT})`, () => {
  it('refunding the second payment of an invoice paid twice (as the log asks) leaves the credits of the first', async () => {
    const user = await register(t);
    const { order } = await buyWithCrypto(p, user, 'CREDIT_20');
    const first = p.nowpayments.sent.at(-1)!.payment_id;
    assert.equal((await p.nowpayments.notify(order.id, 'finished', { overrides: { payment_id: 987654321 } })).status, 200);
    assert.equal(await balance(t, user.id), 25);
    const refunded = await p.nowpayments.notify(order.id, 'refunded', { overrides: { payment_id: 987654321 } });
    assert.equal(refunded.status, 200, JSON.stringify(refunded.body));
    assert.equal(await balance(t, user.id), 25, 'the credited payment was not refunded');
    let [row] = await paymentRows(t, user.id);
    assert.deepEqual([row.refundedCents, row.creditsReversed], [0, 0]);
    assert.ok(t.logs.some((l) => l.includes('987654321') && l.includes('not the one')), t.logs.slice(-3).join('\n'));
    // The credited payment refunded: its credits go back, once.
    assert.equal((await p.nowpayments.notify(order.id, 'refunded', { overrides: { payment_id: first } })).status, 200);
    assert.equal(await balance(t, user.id), 0);
    [row] = await paymentRows(t, user.id);
    assert.deepEqual([row.refundedCents, row.creditsReversed], [2000, 25]);
  });

  it('a payment refunded before another payment of the invoice credits is not counted against it', async () => {
    const user = await register(t);
    const { order } = await createCryptoOrder(user);
    // A first payment too small, refunded by NOWPayments; the buyer then pays the invoice in full.
    assert.equal((await p.nowpayments.notify(order, 'partially_paid', { overrides: { payment_id: 111 } })).status, 200);
    assert.equal((await p.nowpayments.notify(order, 'refunded', { overrides: { payment_id: 111 } })).status, 200);
    assert.equal((await p.nowpayments.notify(order, 'finished', { overrides: { payment_id: 222 } })).status, 200);
    assert.equal(await balance(t, user.id), 25);
    // The first refund delivered again (NOWPayments retries) takes nothing from the second payment.
    assert.equal((await p.nowpayments.notify(order, 'refunded', { overrides: { payment_id: 111 } })).status, 200);
    assert.equal(await balance(t, user.id), 25);
    const [row] = await paymentRows(t, user.id);
    assert.deepEqual([row.status, row.transactionId, row.refundedCents, row.creditsReversed], ['paid', '222', 0, 0]);
  });
});

async function createCryptoOrder(user: { key: string }) {
  const res = await t.request('POST', '/api/payment/crypto/create-order', { key: user.key, json: { offer_id: 'CREDIT_20', user_token: user.key } });
  assert.equal(res.status, 200, res.text);
  return { order: res.body.id as string };
}

describe(`currency letter case in refund notices (${TEST_DIALECT})`, () => {
  it('a PayPal refund in "eur" is the payment’s EUR: taken back, not refused', async () => {
    const user = await register(t);
    const { order, capture } = await buyWithPayPal(p, user, 'CREDIT_10');
    assert.equal(capture.status, 200, capture.text);
    const { event } = await p.paypal.refund(p.paypal.captureOf(order.id), { send: false });
    event.resource.amount.currency_code = 'eur';
    const answer = await p.paypal.send(event);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(await balance(t, user.id), 0);
  });
});

describe(`a subscription refunded before its payment was processed (${TEST_DIALECT})`, () => {
  it('first period and renewal: 409 until invoice.paid credits, then taken back once (before: acknowledged as none of ours, the credits kept)', async () => {
    const user = await register(t);
    const session = await t.request('POST', '/api/payment/stripe/session', { key: user.key, json: { offer_id: 'SUB_9', user_token: user.key } });
    assert.equal(session.status, 200, session.text);
    // Our server misses the confirmation events (Stripe will retry them).
    const webhook = `${t.url}/api/payment/stripe/webhook`;
    p.stripe.setWebhook(`${t.url}/api/payment/stripe/nowhere`);
    const { events } = await p.stripe.complete(session.body.id);
    p.stripe.setWebhook(webhook);
    const stored = p.stripe.sessions.get(session.body.id)!;
    const firstInvoice = stored.invoice as string;
    const early = await p.stripe.refund(firstInvoice);
    assert.equal(early.delivery!.status, 409, JSON.stringify(early.delivery!.body));
    for (const e of events) assert.equal((await p.stripe.send(e)).status, 200);
    assert.equal(await balance(t, user.id), 10);
    assert.equal((await p.stripe.send(early.event)).status, 200);
    assert.equal(await balance(t, user.id), 0);

    // A renewal whose invoice.paid went nowhere, refunded in part.
    const again = await register(t);
    const { session: s2 } = await buyWithStripe(p, again, 'SUB_9');
    const subscriptionId = p.stripe.sessions.get(s2.id)!.subscription as string;
    assert.equal(await balance(t, again.id), 10);
    p.stripe.setWebhook(`${t.url}/api/payment/stripe/nowhere`);
    const renewal = await p.stripe.renew(subscriptionId);
    p.stripe.setWebhook(webhook);
    const refund = await p.stripe.refund(renewal.invoice.id as string, { amount: 450 });
    assert.equal(refund.delivery!.status, 409, JSON.stringify(refund.delivery!.body));
    assert.equal((await p.stripe.send(renewal.event)).status, 200);
    assert.equal(await balance(t, again.id), 20);
    assert.equal((await p.stripe.send(refund.event)).status, 200);
    assert.equal(await balance(t, again.id), 15, 'half of the renewal: 5 of its 10 credits');
    const rows = await paymentRows(t, again.id);
    assert.deepEqual(rows.map((r) => [r.kind, r.status, r.creditsReversed]).sort(), [['renewal', 'paid', 5], ['subscription', 'paid', 0]]);
  });
});
