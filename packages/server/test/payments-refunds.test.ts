import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { register } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { buyWithCrypto, buyWithStripe, paymentRows, reversalRows, usePaymentApp } from './support/payments.js';
import { balance, ledgerRows, makeAdmin } from './support/work.js';

// Refunds and disputes (docs/payments.md "Refunds and disputes"), through the local Stripe and
// NOWPayments, signed as they sign. Before the fix every one of these events left the credits on
// the account.

const p = usePaymentApp();
const { t } = p;

const reversals = (userId: number) => reversalRows(t, userId);

async function paidPack(offer: string) {
  const user = await register(t);
  const { session, deliveries } = await buyWithStripe(p, user, offer);
  assert.deepEqual(deliveries.map((d) => d.status), [200]);
  const intent = p.stripe.sessions.get(session.id)!.payment_intent as string;
  return { user, intent };
}

describe(`Stripe refunds and disputes (${TEST_DIALECT})`, () => {
  it('a full refund takes back every credit the pack bought, once, however often Stripe sends it; the admin sees it', async () => {
    const { user, intent } = await paidPack('CREDIT_10');
    assert.equal(await balance(t, user.id), 12);
    const { event, delivery } = await p.stripe.refund(intent);
    assert.equal(delivery!.status, 200, JSON.stringify(delivery!.body));
    assert.equal(await balance(t, user.id), 0);
    // The same event again, and ten copies at once.
    assert.equal((await p.stripe.send(event)).status, 200);
    const copies = await Promise.all(Array.from({ length: 10 }, () => p.stripe.send(event)));
    assert.deepEqual([...new Set(copies.map((c) => c.status))], [200]);
    assert.equal(await balance(t, user.id), 0);
    assert.deepEqual(await reversals(user.id), [['spend', 'payment_refund', -12]]);
    const [row] = await paymentRows(t, user.id);
    assert.deepEqual([row.status, row.refundedCents, row.creditsReversed, row.creditsShortfall], ['paid', 1000, 12, 0]);
    // The admin's history of the account shows the movement with its reason.
    const admin = await makeAdmin(t);
    const history = await t.request('GET', `/api/admin/user_history/${user.id}`, { key: admin.key });
    assert.equal(history.status, 200);
    const line = history.body.history.find((l: { credits_delta: number }) => l.credits_delta === -12);
    assert.ok(line, JSON.stringify(history.body.history));
    assert.equal(line.label, 'Paiement remboursé : crédits repris (Pack 12 crédits)');
    assert.equal(line.balance_after, 0);
    // The buyer's history too; the invoice link stays on the purchase, not on its refund.
    const mine = (await t.request('GET', '/api/me', { key: user.key })).body.purchase_history as { type: string; credits: number; invoice?: unknown }[];
    assert.deepEqual(mine.map((h) => [h.type, h.credits, !!h.invoice]), [['payment_refund', -12, false], ['purchase', 12, true]]);
  });

  it('partial refunds take back the refunded share rounded up, whatever order their events arrive in', async () => {
    const { user, intent } = await paidPack('CREDIT_20'); // 20 €, 25 credits
    const first = await p.stripe.refund(intent, { amount: 500, send: false }); // 5 € in all
    const second = await p.stripe.refund(intent, { amount: 700, send: false }); // 12 € in all
    // The later state first: 25 × 12/20 = 15 credits; then the older copy changes nothing.
    assert.equal((await p.stripe.send(second.event)).status, 200);
    assert.equal(await balance(t, user.id), 10);
    assert.equal((await p.stripe.send(first.event)).status, 200);
    assert.equal(await balance(t, user.id), 10);
    // 1 € more: 25 × 13/20 = 16.25, rounded up to 17 (the shop's favour): 2 more.
    assert.equal((await p.stripe.refund(intent, { amount: 100 })).delivery!.status, 200);
    assert.equal(await balance(t, user.id), 8);
    // The rest: every credit.
    assert.equal((await p.stripe.refund(intent)).delivery!.status, 200);
    assert.equal(await balance(t, user.id), 0);
    assert.deepEqual(await reversals(user.id), [['spend', 'payment_refund', -15], ['spend', 'payment_refund', -2], ['spend', 'payment_refund', -8]]);
  });

  it('credits already spent: what is there is taken, never below zero, and the shortfall is recorded for the admin', async () => {
    const { user, intent } = await paidPack('CREDIT_10');
    await t.app.services.ledger.debit(user.id, 7, 'csvDownload');
    assert.equal(await balance(t, user.id), 5);
    assert.equal((await p.stripe.refund(intent)).delivery!.status, 200);
    assert.equal(await balance(t, user.id), 0);
    const rows = (await ledgerRows(t, user.id)).filter((r) => r.reason === 'payment_refund');
    assert.equal(rows.length, 1);
    assert.equal(rows[0].amount, -5);
    assert.deepEqual((({ owed, taken, shortfall }) => ({ owed, taken, shortfall }))(JSON.parse(rows[0].meta!)), { owed: 12, taken: 5, shortfall: 7 });
    const [row] = await paymentRows(t, user.id);
    assert.deepEqual([row.creditsReversed, row.creditsShortfall], [12, 7]);
    // Nothing spent is left to take: a later refund row is still written (0 taken), for the admin.
    const other = await paidPack('CREDIT_5');
    await t.app.services.ledger.debit(other.user.id, 5, 'csvDownload');
    assert.equal((await p.stripe.refund(other.intent)).delivery!.status, 200);
    assert.equal(await balance(t, other.user.id), 0);
    assert.deepEqual(await reversals(other.user.id), [['spend', 'payment_refund', 0]]);
  });

  it('a dispute takes the credits back when it opens and gives them back when it is won; a lost one keeps them taken, even delivered before its opening', async () => {
    const won = await paidPack('CREDIT_10');
    assert.equal((await p.stripe.dispute(won.intent, 'needs_response')).delivery!.status, 200);
    assert.equal(await balance(t, won.user.id), 0);
    const closed = await p.stripe.dispute(won.intent, 'won');
    assert.equal(closed.event.type, 'charge.dispute.closed');
    assert.equal(closed.delivery!.status, 200);
    assert.equal((await p.stripe.send(closed.event)).status, 200);
    assert.equal(await balance(t, won.user.id), 12);
    assert.deepEqual(await reversals(won.user.id), [['spend', 'payment_dispute', -12], ['grant', 'dispute_won', 12]]);

    // An inquiry withdraws nothing: nothing moves.
    const inquiry = await paidPack('CREDIT_5');
    const asked = await p.stripe.dispute(inquiry.intent, 'needs_response', { send: false });
    asked.event.data.object.status = 'warning_needs_response';
    const answer = await p.stripe.send(asked.event);
    assert.deepEqual([answer.status, answer.body.status], [200, 'inquiry']);
    assert.equal(await balance(t, inquiry.user.id), 5);

    const lost = await paidPack('CREDIT_10');
    const opened = await p.stripe.dispute(lost.intent, 'needs_response', { send: false });
    const lostEvent = await p.stripe.dispute(lost.intent, 'lost', { send: false });
    assert.equal((await p.stripe.send(lostEvent.event)).status, 200);
    assert.equal((await p.stripe.send(opened.event)).status, 200);
    assert.equal((await p.stripe.send(lostEvent.event)).status, 200);
    assert.equal(await balance(t, lost.user.id), 0);
    assert.deepEqual(await reversals(lost.user.id), [['spend', 'payment_dispute', -12]]);
    const [row] = await paymentRows(t, lost.user.id);
    assert.deepEqual([row.disputeStatus, row.disputedCents, row.creditsReversed], ['lost', 1000, 12]);
  });

  it('a refunded subscription period takes its credits back and ends the plan now, with its Stripe subscription; a partial refund keeps the plan', async () => {
    const user = await register(t);
    const { session } = await buyWithStripe(p, user, 'SUB_25');
    const invoiceId = p.stripe.sessions.get(session.id)!.invoice as string;
    const me = async () => (await t.request('GET', '/api/me', { key: user.key })).body;
    assert.equal((await me()).plan, 'SUB_25');
    assert.equal(await balance(t, user.id), 30);
    // 5 € of 25: 6 credits, the plan stays.
    assert.equal((await p.stripe.refund(invoiceId, { amount: 500 })).delivery!.status, 200);
    assert.equal(await balance(t, user.id), 24);
    assert.equal((await me()).plan, 'SUB_25');
    // The rest: every credit, and the plan ends.
    const subscriptionId = p.stripe.sessions.get(session.id)!.subscription as string;
    assert.equal((await p.stripe.refund(invoiceId)).delivery!.status, 200);
    await p.stripe.settle();
    assert.equal(await balance(t, user.id), 0);
    const after = await me();
    assert.equal(after.plan, 'free');
    assert.equal(p.stripe.subscriptions.get(subscriptionId)!.status, 'canceled');
    // The charge was found through Stripe's invoice payments (charges no longer name their invoice).
    assert.ok(p.stripe.requests.some((r) => r.path === '/v1/invoice_payments'));
  });

  it('a refund delivered before the payment it refunds was confirmed is a 409 (Stripe delivers it again), then taken back once the credits are there', async () => {
    const user = await register(t);
    const session = await t.request('POST', '/api/payment/stripe/session', { key: user.key, json: { offer_id: 'CREDIT_10', user_token: user.key } });
    assert.equal(session.status, 200);
    // Our server missed the confirmation (Stripe will retry it): the delivery went nowhere.
    const webhook = `${t.url}/api/payment/stripe/webhook`;
    p.stripe.setWebhook(`${t.url}/api/payment/stripe/nowhere`);
    const { events } = await p.stripe.complete(session.body.id);
    p.stripe.setWebhook(webhook);
    const intent = p.stripe.sessions.get(session.body.id)!.payment_intent as string;
    const early = await p.stripe.refund(intent);
    assert.equal(early.delivery!.status, 409, JSON.stringify(early.delivery!.body));
    assert.equal(await balance(t, user.id), 0);
    // Stripe retries: the confirmation credits, the refund takes back.
    assert.equal((await p.stripe.send(events[0])).status, 200);
    assert.equal(await balance(t, user.id), 12);
    assert.equal((await p.stripe.send(early.event)).status, 200);
    assert.equal(await balance(t, user.id), 0);
    assert.deepEqual(await reversals(user.id), [['spend', 'payment_refund', -12]]);
  });

  it("someone else's charge is acknowledged and ignored", async () => {
    const { user, intent } = await paidPack('CREDIT_5');
    const { event } = await p.stripe.refund(intent, { send: false });
    event.data.object.payment_intent = 'pi_not_ours_0000';
    const res = await p.stripe.send(event);
    assert.equal(res.status, 200);
    assert.equal(res.body.ignored, 'not a bt payment');
    assert.equal(await balance(t, user.id), 5);
  });
});

describe(`crypto refunds (${TEST_DIALECT})`, () => {
  it("NOWPayments' refunded IPN takes back the payment's credits once", async () => {
    const user = await register(t);
    const { order, ipn } = await buyWithCrypto(p, user, 'CREDIT_20');
    assert.equal(ipn.status, 200);
    assert.equal(await balance(t, user.id), 25);
    const refunded = await p.nowpayments.notify(order.id, 'refunded');
    assert.equal(refunded.status, 200, JSON.stringify(refunded.body));
    assert.equal((await p.nowpayments.notify(order.id, 'refunded')).status, 200);
    assert.equal(await balance(t, user.id), 0);
    assert.deepEqual(await reversals(user.id), [['spend', 'payment_refund', -25]]);
  });
});
