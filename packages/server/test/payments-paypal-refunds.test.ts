import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PayPalOrders } from '../src/payments/paypal.js';
import { register, useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { buyWithPayPal, paymentRows, PAYPAL_KEYS, PAYPAL_WEBHOOK_ID, reversalRows, usePaymentApp } from './support/payments.js';
import { balance, makeAdmin } from './support/work.js';

// PayPal refunds, reversals and disputes (docs/payments.md "Refunds and disputes"), through the
// local PayPal: its webhook notices are signed with its RSA key for our webhook id and verified by
// its /v1/notifications/verify-webhook-signature, as PayPal does. Before, no PayPal webhook existed:
// a refund left every credit of the payment on the account.

const p = usePaymentApp();
const { t } = p;

const reversals = (userId: number) => reversalRows(t, userId);

async function paidPack(offer: string) {
  const user = await register(t);
  const { order, capture } = await buyWithPayPal(p, user, offer);
  assert.equal(capture.status, 200, capture.text);
  return { user, orderId: order.id as string, captureId: p.paypal.captureOf(order.id) };
}

describe(`PayPal refunds and disputes by webhook (${TEST_DIALECT})`, () => {
  it('a full refund takes back every credit, once, however often PayPal sends it; each notice is verified by PayPal for our webhook id', async () => {
    const { user, captureId } = await paidPack('CREDIT_10');
    assert.equal(await balance(t, user.id), 12);
    const verifiedBefore = p.paypal.verifications.length;
    const { event, delivery } = await p.paypal.refund(captureId);
    assert.equal(delivery!.status, 200, JSON.stringify(delivery!.body));
    assert.deepEqual(delivery!.body, { received: true, status: 'reversed' });
    assert.equal(await balance(t, user.id), 0);
    assert.deepEqual(p.paypal.verifications.slice(verifiedBefore).map((v) => [v.webhookId, v.status]), [[PAYPAL_WEBHOOK_ID, 'SUCCESS']]);
    // The same notice again, and ten copies at once.
    assert.deepEqual((await p.paypal.send(event)).body, { received: true, status: 'unchanged' });
    const copies = await Promise.all(Array.from({ length: 10 }, () => p.paypal.send(event)));
    assert.deepEqual([...new Set(copies.map((c) => c.status))], [200]);
    assert.equal(await balance(t, user.id), 0);
    assert.deepEqual(await reversals(user.id), [['spend', 'payment_refund', -12]]);
    const [row] = await paymentRows(t, user.id);
    assert.deepEqual([row.status, row.refundedCents, row.creditsReversed, row.creditsShortfall], ['paid', 1000, 12, 0]);
    assert.equal(p.paypal.verifications.length, verifiedBefore + 12);
    const admin = await makeAdmin(t);
    const history = await t.request('GET', `/api/admin/user_history/${user.id}`, { key: admin.key });
    const line = history.body.history.find((l: { credits_delta: number }) => l.credits_delta === -12);
    assert.equal(line?.label, 'Paiement remboursé : crédits repris (Pack 12 crédits)');
  });

  it('partial refunds take back the refunded share rounded up, by the capture’s refunded total, in any order; a reversal counts as a refund', async () => {
    const { user, captureId } = await paidPack('CREDIT_20'); // 20 €, 25 credits
    const first = await p.paypal.refund(captureId, { amount: 500, send: false }); // 5 € in all
    const second = await p.paypal.refund(captureId, { amount: 700, send: false }); // 12 € in all
    assert.equal((await p.paypal.send(second.event)).status, 200);
    assert.equal(await balance(t, user.id), 10); // 25 × 12/20 = 15 taken
    assert.equal((await p.paypal.send(first.event)).status, 200);
    assert.equal(await balance(t, user.id), 10);
    // 1 € more: 25 × 13/20 = 16.25, rounded up to 17: 2 more.
    assert.equal((await p.paypal.refund(captureId, { amount: 100 })).delivery!.status, 200);
    assert.equal(await balance(t, user.id), 8);
    // The rest goes back by a reversal: every credit.
    const reversed = await p.paypal.refund(captureId, { reverse: true });
    assert.equal(reversed.event.event_type, 'PAYMENT.CAPTURE.REVERSED');
    assert.equal(reversed.delivery!.status, 200);
    assert.equal(await balance(t, user.id), 0);
    assert.deepEqual(await reversals(user.id), [['spend', 'payment_refund', -15], ['spend', 'payment_refund', -2], ['spend', 'payment_refund', -8]]);
  });

  it('a forged notice moves nothing: a body changed after signing, signed for another webhook, without headers; PayPal unreachable is a 503', async () => {
    const { user, captureId } = await paidPack('CREDIT_10');
    const { event } = await p.paypal.refund(captureId, { amount: 100, send: false });
    const forged = structuredClone(event);
    forged.resource.seller_payable_breakdown.total_refunded_amount.value = '10.00';
    const changed = await p.paypal.send(event, { payload: JSON.stringify(forged) });
    assert.deepEqual([changed.status, changed.body.detail], [400, 'Signature invalide.']);
    assert.equal(p.paypal.verifications.at(-1)!.status, 'FAILURE');
    const otherWebhook = await p.paypal.send(event, { webhookId: 'SOMEONE-ELSES-WEBHOOK' });
    assert.deepEqual([otherWebhook.status, otherWebhook.body.detail], [400, 'Signature invalide.']);
    const verified = p.paypal.verifications.length;
    const bare = await t.request('POST', '/api/payment/paypal/webhook', { json: forged });
    assert.deepEqual([bare.status, bare.body.detail], [400, 'Signature invalide.']);
    assert.equal(p.paypal.verifications.length, verified, 'a notice without its headers is not sent to PayPal');
    const notJson = await p.paypal.send(event, { payload: '{"event_type": ' });
    assert.equal(notJson.status, 400);
    assert.equal(await balance(t, user.id), 12);
    assert.deepEqual(await reversals(user.id), []);
    const refused = await t.db.models.Payment.count({ where: { provider: 'paypal', status: 'refused', failureKind: 'bad_signature' } });
    assert.ok(refused >= 4, String(refused));
    // PayPal cannot verify now: 503, PayPal delivers again later, and then it counts.
    p.paypal.hooks.verificationDown = true;
    const down = await p.paypal.send(event);
    p.paypal.hooks.verificationDown = false;
    assert.deepEqual([down.status, down.body.detail], [503, 'PayPal ne répond pas : notification non vérifiée, à renvoyer.']);
    assert.equal(await balance(t, user.id), 12);
    assert.equal((await p.paypal.send(event)).status, 200);
    assert.equal(await balance(t, user.id), 10); // 1 € of 10: 1.2 credits, rounded up
  });

  it('a token PayPal revoked before its time: the verification asks for a new one and goes through', async () => {
    const { user, captureId } = await paidPack('CREDIT_5');
    p.paypal.revokeTokens();
    const tokensBefore = p.paypal.requests.filter((r) => r.path === '/v1/oauth2/token').length;
    const { delivery } = await p.paypal.refund(captureId);
    assert.equal(delivery!.status, 200, JSON.stringify(delivery!.body));
    assert.equal(await balance(t, user.id), 0);
    assert.equal(p.paypal.requests.filter((r) => r.path === '/v1/oauth2/token').length, tokensBefore + 1);
  });

  it('a refund PayPal has not completed (PENDING) takes nothing yet and says so; its completed notice does', async () => {
    const { user, captureId } = await paidPack('CREDIT_10');
    const { event } = await p.paypal.refund(captureId, { send: false });
    const pending = structuredClone(event);
    pending.resource.status = 'PENDING';
    const res = await p.paypal.send(pending);
    assert.deepEqual([res.status, res.body.status], [200, 'pending']);
    assert.equal(await balance(t, user.id), 12);
    assert.ok(t.logs.some((line) => line.includes(`of capture ${captureId} is PENDING`)), t.logs.slice(-5).join('\n'));
    assert.equal((await p.paypal.send(event)).status, 200);
    assert.equal(await balance(t, user.id), 0);
  });

  it('a refund PayPal notifies PAYMENT.REFUND.PENDING moves nothing and is logged; PAYMENT.CAPTURE.REFUNDED at its completion takes its share back once, beside another refund', async () => {
    const { user, captureId } = await paidPack('CREDIT_20'); // 20 €, 25 credits
    const pending = await p.paypal.refund(captureId, { amount: 500, pending: true });
    assert.equal(pending.event.event_type, 'PAYMENT.REFUND.PENDING');
    assert.deepEqual([pending.delivery!.status, pending.delivery!.body.status], [200, 'pending']);
    assert.equal(await balance(t, user.id), 25);
    assert.ok(t.logs.some((line) => line.includes(`refund ${pending.refund.id} of capture ${captureId} is PENDING`)), t.logs.slice(-5).join('\n'));
    // Another refund completes meanwhile: the capture's refunded total is 7 € (the pending one not in it).
    assert.equal((await p.paypal.refund(captureId, { amount: 700 })).delivery!.status, 200);
    assert.equal(await balance(t, user.id), 16); // 25 × 7/20 = 8.75, rounded up: 9
    const completed = await p.paypal.completeRefund(pending.refund.id);
    assert.equal(completed.event.event_type, 'PAYMENT.CAPTURE.REFUNDED');
    assert.deepEqual([completed.delivery!.status, completed.delivery!.body.status], [200, 'reversed']);
    assert.equal(await balance(t, user.id), 10); // 12 € in all: 15 taken, 6 more
    // Its completion again, ten copies at once, the PENDING notice delivered late: nothing more.
    assert.deepEqual((await p.paypal.send(completed.event)).body, { received: true, status: 'unchanged' });
    const copies = await Promise.all(Array.from({ length: 10 }, () => p.paypal.send(completed.event)));
    assert.deepEqual([...new Set(copies.map((c) => c.status))], [200]);
    assert.equal((await p.paypal.send(pending.event)).status, 200);
    assert.equal(await balance(t, user.id), 10);
    assert.deepEqual(await reversals(user.id), [['spend', 'payment_refund', -9], ['spend', 'payment_refund', -6]]);
    const [row] = await paymentRows(t, user.id);
    assert.deepEqual([row.refundedCents, row.creditsReversed], [1200, 15]);
  });

  it('a refund of a capture that is none of ours is acknowledged and ignored', async () => {
    const { user, captureId } = await paidPack('CREDIT_5');
    const { event } = await p.paypal.refund(captureId, { send: false });
    const foreign = structuredClone(event);
    foreign.resource.links[1].href = `${p.paypal.base}/v2/payments/captures/0JF852973C016714D`;
    const res = await p.paypal.send(foreign);
    assert.deepEqual([res.status, res.body.ignored], [200, 'not a bt payment']);
    assert.equal(await balance(t, user.id), 5);
  });

  it('a refund delivered before our capture was recorded is a 409 (PayPal delivers it again), then taken back once the credits are there', async () => {
    const user = await register(t);
    const order = await t.request('POST', '/api/payment/paypal/create-order', { key: user.key, json: { offer_id: 'CREDIT_10', user_token: user.key } });
    p.paypal.approve(order.body.id);
    // Captured at PayPal, but its answer never reached us (the buyer closed the tab).
    const capture = p.paypal.captureAtPayPal(order.body.id);
    const early = await p.paypal.refund(capture.id, { amount: 500 });
    assert.deepEqual([early.delivery!.status, early.delivery!.body.detail], [409, 'Paiement pas encore confirmé : remboursement ou contestation à renvoyer plus tard.']);
    assert.equal(await balance(t, user.id), 0);
    // The buyer comes back: the order, captured (and partly refunded) already, is read back and
    // credits what was paid; PayPal's retry of the refund then takes back its share (6 of 12).
    const captured = await t.request('POST', '/api/payment/paypal/capture-order', { key: user.key, json: { orderID: order.body.id, offer_id: 'CREDIT_10', user_token: user.key } });
    assert.equal(captured.status, 200, captured.text);
    assert.equal(await balance(t, user.id), 12);
    assert.equal((await p.paypal.send(early.event)).status, 200);
    assert.equal(await balance(t, user.id), 6);
    assert.deepEqual(await reversals(user.id), [['spend', 'payment_refund', -6]]);
  });

  it('a dispute takes the credits back when it opens, gives them back when resolved for us, keeps them when lost, and its refund takes nothing more', async () => {
    const won = await paidPack('CREDIT_10');
    assert.equal((await p.paypal.dispute(won.captureId, 'open')).delivery!.status, 200);
    assert.equal(await balance(t, won.user.id), 0);
    const resolved = await p.paypal.dispute(won.captureId, 'RESOLVED_SELLER_FAVOUR');
    assert.equal(resolved.event.event_type, 'CUSTOMER.DISPUTE.RESOLVED');
    assert.equal(resolved.delivery!.status, 200);
    assert.equal((await p.paypal.send(resolved.event)).status, 200);
    assert.equal(await balance(t, won.user.id), 12);
    assert.deepEqual(await reversals(won.user.id), [['spend', 'payment_dispute', -12], ['grant', 'dispute_won', 12]]);

    const lost = await paidPack('CREDIT_20');
    const opened = await p.paypal.dispute(lost.captureId, 'open', { send: false });
    const closed = await p.paypal.dispute(lost.captureId, 'RESOLVED_BUYER_FAVOUR', { send: false });
    assert.equal((await p.paypal.send(closed.event)).status, 200);
    assert.equal((await p.paypal.send(opened.event)).status, 200); // delivered late: a closed dispute is final
    assert.equal(await balance(t, lost.user.id), 0);
    // The buyer's money leaves by a refund of the capture: the same money, nothing more to take.
    assert.equal((await p.paypal.refund(lost.captureId)).delivery!.status, 200);
    assert.deepEqual(await reversals(lost.user.id), [['spend', 'payment_dispute', -25]]);
    const [row] = await paymentRows(t, lost.user.id);
    assert.deepEqual([row.disputeStatus, row.disputedCents, row.refundedCents, row.creditsReversed], ['lost', 2000, 2000, 25]);
  });

  it('a PayPal plan period refunded in full ends the plan now', async () => {
    const user = await register(t);
    const { order, capture } = await buyWithPayPal(p, user, 'SUB_9');
    assert.equal(capture.status, 200, capture.text);
    const me = async () => (await t.request('GET', '/api/me', { key: user.key })).body;
    assert.equal((await me()).plan, 'SUB_9');
    assert.equal((await p.paypal.refund(p.paypal.captureOf(order.id))).delivery!.status, 200);
    assert.equal((await me()).plan, 'free');
    assert.equal(await balance(t, user.id), 0);
  });
});

describe(`PayPal webhook without PAYPAL_WEBHOOK_ID (${TEST_DIALECT})`, () => {
  const bare = useTestApp({ payments: { stripe: null, crypto: null, paypal: new PayPalOrders({ ...PAYPAL_KEYS, apiBase: 'http://127.0.0.1:9', webhookId: null }) } });

  it('answers 503 and says why: nothing can be verified', async () => {
    const res = await bare.request('POST', '/api/payment/paypal/webhook', {
      json: { id: 'WH-1', event_type: 'PAYMENT.CAPTURE.REFUNDED', resource: {} },
      headers: { 'paypal-transmission-id': 'x', 'paypal-transmission-time': 'x', 'paypal-transmission-sig': 'x', 'paypal-cert-url': 'x', 'paypal-auth-algo': 'SHA256withRSA' },
    });
    assert.deepEqual([res.status, res.body.detail], [503, 'Webhook PayPal non configuré sur ce serveur (PAYPAL_WEBHOOK_ID) : notification à renvoyer.']);
    assert.ok(bare.logs.some((line: string) => line.includes('PAYPAL_WEBHOOK_ID is not set')), bare.logs.join('\n'));
  });
});
