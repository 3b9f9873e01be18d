import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { register } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { buyWithPayPal, paymentRows, usePaymentApp } from './support/payments.js';
import { balance, ledgerRows } from './support/work.js';

// PayPal captures PayPal holds PENDING (an eCheck, a review on its side), settled later by the
// webhook's PAYMENT.CAPTURE.COMPLETED or PAYMENT.CAPTURE.DENIED (docs/payments.md "PayPal pending
// captures"), through the local PayPal: its notices are signed with its RSA key and verified by its
// /v1/notifications/verify-webhook-signature. Before, a PENDING capture was recorded failed and the
// credits of a payment PayPal then completed were never granted (settled by hand).

const p = usePaymentApp();
const { t } = p;

const purchases = async (userId: number) => (await ledgerRows(t, userId)).filter((r) => r.reason === 'purchase').map((r) => [r.kind, r.amount]);
const invoices = (userId: number) => t.db.models.Invoice.count({ where: { userId } });

/** A CREDIT_10 (10 €, 12 credits) whose capture PayPal leaves PENDING when the buyer returns. */
async function pendingPack(reason = 'ECHECK') {
  const user = await register(t);
  p.paypal.hooks.pendingNext = reason;
  const { order, capture } = await buyWithPayPal(p, user, 'CREDIT_10');
  assert.equal(capture.status, 200, capture.text);
  assert.deepEqual([capture.body.status, capture.body.credits_added, capture.body.payment.status], ['pending', 0, 'created']);
  assert.equal(capture.body.message, 'Paiement en attente chez PayPal : les crédits sont ajoutés dès que PayPal le confirme.');
  return { user, orderId: order.id as string, captureId: p.paypal.captureOf(order.id) };
}

const returnAgain = (user: { key: string }, orderId: string) =>
  t.request('POST', '/api/payment/paypal/capture-order', { key: user.key, json: { orderID: orderId, offer_id: 'CREDIT_10', user_token: user.key } });

describe(`PayPal pending captures settled by webhook (${TEST_DIALECT})`, () => {
  it('a PENDING capture credits nothing at the return; PAYMENT.CAPTURE.COMPLETED credits once, replayed or in 10 copies at once', async () => {
    const { user, orderId, captureId } = await pendingPack();
    assert.equal(await balance(t, user.id), 0);
    assert.ok(t.logs.some((line) => line.includes(`capture ${captureId}`) && line.includes('is PENDING')), t.logs.slice(-5).join('\n'));
    const [before] = await paymentRows(t, user.id);
    assert.deepEqual([before.status, before.failureKind, before.transactionId], ['created', null, null]);
    // The buyer reloads the return page: still pending, still nothing.
    const again = await returnAgain(user, orderId);
    assert.deepEqual([again.status, again.body.status], [200, 'pending']);
    assert.equal(await balance(t, user.id), 0);

    const { event, delivery } = await p.paypal.settleCapture(captureId, 'COMPLETED');
    assert.equal(delivery!.status, 200, JSON.stringify(delivery!.body));
    assert.deepEqual(delivery!.body, { received: true, status: 'paid' });
    assert.equal(p.paypal.verifications.at(-1)!.status, 'SUCCESS');
    assert.equal(await balance(t, user.id), 12);
    assert.deepEqual((await p.paypal.send(event)).body, { received: true, status: 'paid' });
    const copies = await Promise.all(Array.from({ length: 10 }, () => p.paypal.send(event)));
    assert.deepEqual([...new Set(copies.map((c) => c.status))], [200], JSON.stringify(copies.map((c) => c.body)));
    assert.equal(await balance(t, user.id), 12);
    assert.deepEqual(await purchases(user.id), [['grant', 12]]);
    assert.equal(await invoices(user.id), 1);
    const [row] = await paymentRows(t, user.id);
    assert.deepEqual([row.status, row.transactionId, row.amountReceivedCents, row.currencyReceived], ['paid', captureId, 1000, 'EUR']);
    // The buyer's return after it: paid, nothing more.
    const after = await returnAgain(user, orderId);
    assert.deepEqual([after.status, after.body.status, after.body.credits], [200, 'success', 12]);
    assert.equal(await balance(t, user.id), 12);
  });

  it('the return and the webhook racing credit once: a PENDING capture completed while the buyer reloads, and a capture completed at once', async () => {
    const pending = await pendingPack('PENDING_REVIEW');
    const { event } = await p.paypal.settleCapture(pending.captureId, 'COMPLETED', { send: false });
    const answers = await Promise.all([...Array.from({ length: 5 }, () => p.paypal.send(event)), ...Array.from({ length: 3 }, () => returnAgain(pending.user, pending.orderId))]);
    assert.deepEqual([...new Set(answers.map((a) => a.status))], [200], JSON.stringify(answers.map((a) => a.body)));
    assert.equal(await balance(t, pending.user.id), 12);
    assert.deepEqual(await purchases(pending.user.id), [['grant', 12]]);
    assert.equal(await invoices(pending.user.id), 1);

    // PayPal notifies PAYMENT.CAPTURE.COMPLETED for a capture completed at once too: captured at
    // PayPal, the buyer's return and the notice arrive together.
    const user = await register(t);
    const order = await t.request('POST', '/api/payment/paypal/create-order', { key: user.key, json: { offer_id: 'CREDIT_10', user_token: user.key } });
    p.paypal.approve(order.body.id);
    const capture = p.paypal.captureAtPayPal(order.body.id);
    const completed = await p.paypal.settleCapture(capture.id, 'COMPLETED', { send: false });
    const raced = await Promise.all([...Array.from({ length: 5 }, () => p.paypal.send(completed.event)), ...Array.from({ length: 3 }, () => returnAgain(user, order.body.id))]);
    assert.deepEqual([...new Set(raced.map((a) => a.status))], [200], JSON.stringify(raced.map((a) => a.body)));
    assert.equal(await balance(t, user.id), 12);
    assert.deepEqual(await purchases(user.id), [['grant', 12]]);
    assert.equal(await invoices(user.id), 1);
    assert.ok(!t.logs.some((line) => line.includes('paid again')), 'the same capture twice is a replay, not a second payment');
  });

  it('PAYMENT.CAPTURE.DENIED records the payment failed, credits nothing, replayed or not; the buyer’s return then says the capture failed', async () => {
    const { user, orderId, captureId } = await pendingPack();
    const { event, delivery } = await p.paypal.settleCapture(captureId, 'DENIED');
    assert.equal(delivery!.status, 200, JSON.stringify(delivery!.body));
    assert.deepEqual(delivery!.body, { received: true, status: 'failed' });
    assert.deepEqual((await p.paypal.send(event)).body, { received: true, status: 'failed' });
    const [row] = await paymentRows(t, user.id);
    assert.deepEqual([row.status, row.failureKind], ['failed', 'payment_failed']);
    assert.match(row.failureDetail ?? '', new RegExp(`capture ${captureId} DENIED`));
    const back = await returnAgain(user, orderId);
    assert.equal(back.status, 400, back.text);
    assert.match(back.body.detail, /DENIED/);
    assert.equal(await balance(t, user.id), 0);
    assert.deepEqual(await purchases(user.id), []);
    assert.equal(await invoices(user.id), 0);
  });

  it('a forged PAYMENT.CAPTURE.COMPLETED (PayPal answers FAILURE) credits nothing; the genuine one then does', async () => {
    const { user, captureId } = await pendingPack();
    const { event } = await p.paypal.settleCapture(captureId, 'COMPLETED', { send: false });
    const forged = await p.paypal.send(event, { webhookId: 'SOMEONE-ELSES-WEBHOOK' });
    assert.deepEqual([forged.status, forged.body.detail], [400, 'Signature invalide.']);
    assert.equal(p.paypal.verifications.at(-1)!.status, 'FAILURE');
    const changed = structuredClone(event);
    changed.resource.id = captureId; // same capture, body altered after signing
    changed.summary = 'forged';
    const altered = await p.paypal.send(event, { payload: JSON.stringify(changed) });
    assert.deepEqual([altered.status, altered.body.detail], [400, 'Signature invalide.']);
    assert.equal(p.paypal.verifications.at(-1)!.status, 'FAILURE');
    assert.equal(await balance(t, user.id), 0);
    const [row] = await paymentRows(t, user.id);
    assert.equal(row.status, 'created');
    assert.equal((await p.paypal.send(event)).status, 200);
    assert.equal(await balance(t, user.id), 12);
  });

  it('a refund delivered before the completion is a 409 then counts; one recorded on a payment marked failed (before this webhook existed) is taken back when the completion credits', async () => {
    const first = await pendingPack();
    const { event } = await p.paypal.settleCapture(first.captureId, 'COMPLETED', { send: false });
    const early = await p.paypal.refund(first.captureId, { amount: 500 });
    assert.deepEqual([early.delivery!.status, early.delivery!.body.detail], [409, 'Paiement pas encore confirmé : remboursement ou contestation à renvoyer plus tard.']);
    assert.equal((await p.paypal.send(event)).status, 200);
    assert.equal(await balance(t, first.user.id), 12);
    assert.equal((await p.paypal.send(early.event)).status, 200);
    assert.equal(await balance(t, first.user.id), 6);

    // A PENDING capture recorded failed (capture_failed) by the old return: its refund records the
    // amount and takes nothing (nothing was credited); the completion credits, then takes that share.
    const legacy = await pendingPack();
    await t.db.models.Payment.update({ status: 'failed', failureKind: 'capture_failed' }, { where: { userId: legacy.user.id } });
    const completed = await p.paypal.settleCapture(legacy.captureId, 'COMPLETED', { send: false });
    const refund = await p.paypal.refund(legacy.captureId, { amount: 500 });
    assert.deepEqual([refund.delivery!.status, refund.delivery!.body.status], [200, 'unpaid']);
    assert.equal((await p.paypal.send(completed.event)).status, 200);
    assert.equal((await p.paypal.send(completed.event)).status, 200);
    assert.equal(await balance(t, legacy.user.id), 6);
    const moves = (await ledgerRows(t, legacy.user.id)).filter((r) => ['purchase', 'payment_refund'].includes(r.reason)).map((r) => [r.reason, r.amount]);
    assert.deepEqual(moves, [['purchase', 12], ['payment_refund', -6]]);
  });
});
