import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { register } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { buyWithPayPal, failedPayments, paymentRows, usePaymentApp } from './support/payments.js';
import { balance, ledgerRows } from './support/work.js';

const p = usePaymentApp();
const { t } = p;
const DAY = 86_400_000;

const createOrder = (user: { key: string }, offerId: string) =>
  t.request('POST', '/api/payment/paypal/create-order', { key: user.key, json: { offer_id: offerId, user_token: user.key } });
const capture = (user: { key: string }, body: Record<string, unknown>) => t.request('POST', '/api/payment/paypal/capture-order', { key: user.key, json: body });
const me = async (key: string) => (await t.request('GET', '/api/me', { key })).body;

describe(`payments through PayPal Orders v2 (${TEST_DIALECT})`, () => {
  it('buys each pack: order, approval on PayPal, capture on return; the captured amount is the offer’s', async () => {
    const user = await register(t);
    let total = 0;
    for (const [offer, cents, credits] of [['CREDIT_5', 500, 5], ['CREDIT_10', 1000, 12], ['CREDIT_20', 2000, 25], ['CREDIT_50', 5000, 75]] as const) {
      const { order, capture: done } = await buyWithPayPal(p, user, offer);
      assert.equal(order.approve_url, `${p.paypal.base}/checkoutnow?token=${order.id}`);
      const sent = p.paypal.orders.get(order.id)!;
      assert.deepEqual(sent.purchase_units[0].amount, { currency_code: 'EUR', value: (cents / 100).toFixed(2) });
      assert.equal(sent.return_url, 'http://web.bt.test/pricing?payment=paypal&status=success');
      total += credits;
      assert.equal(done.status, 200, done.text);
      assert.deepEqual([done.body.status, done.body.message, done.body.credits_added, done.body.credits, done.body.offer_id], ['success', `Paiement confirmé : ${credits} crédits ajoutés.`, credits, total, offer]);
      assert.match(done.body.invoice.label, /^BT-\d{6}$/);
    }
    const rows = await paymentRows(t, user.id);
    assert.ok(rows.every((r) => r.status === 'paid' && r.provider === 'paypal' && r.transactionId && r.currencyReceived === 'EUR'));
    assert.deepEqual((await ledgerRows(t, user.id)).map((r) => r.reference), rows.map((r) => `paypal:${r.transactionId}`));
    // One OAuth token for all these calls, and every capture keyed for idempotency.
    assert.equal(p.paypal.requests.filter((r) => r.path === '/v1/oauth2/token').length, 1);
    assert.ok(p.paypal.requests.filter((r) => r.path.endsWith('/capture')).every((r) => r.requestId?.startsWith('capture-pay_')));
  });

  it('a capture replayed 10 times in a row and 10 times at once credits once and answers the same', async () => {
    const user = await register(t);
    const { order, capture: first } = await buyWithPayPal(p, user, 'CREDIT_20');
    assert.equal(first.status, 200);
    const body = { orderID: order.id, offer_id: 'CREDIT_20', user_token: user.key };
    for (let i = 0; i < 10; i++) {
      const again = await capture(user, body);
      assert.deepEqual([again.status, again.body.credits_added, again.body.invoice.number], [200, 25, first.body.invoice.number]);
    }
    const together = await Promise.all(Array.from({ length: 10 }, () => capture(user, body)));
    assert.deepEqual(together.map((r) => r.status), Array(10).fill(200));
    assert.equal(await balance(t, user.id), 25);
    assert.equal((await ledgerRows(t, user.id)).length, 1);
    assert.equal(await t.db.models.Invoice.count({ where: { userId: user.id } }), 1);

    // Concurrent first captures of a fresh order: PayPal answers them alike, the ledger credits once.
    const fresh = await createOrder(user, 'CREDIT_10');
    p.paypal.approve(fresh.body.id);
    const race = await Promise.all(Array.from({ length: 10 }, () => capture(user, { orderID: fresh.body.id, offer_id: 'CREDIT_10', user_token: user.key })));
    assert.deepEqual(race.map((r) => r.status), Array(10).fill(200));
    assert.equal(await balance(t, user.id), 25 + 12);
    assert.equal((await ledgerRows(t, user.id)).length, 2);
  });

  it('refuses captures that are not approved, declined, of another amount, another user’s or another offer; balance unchanged', async () => {
    const user = await register(t);
    const other = await register(t);
    const failedBefore = await failedPayments(t);
    const order = await createOrder(user, 'CREDIT_10');
    const body = { orderID: order.body.id, offer_id: 'CREDIT_10', user_token: user.key };

    const early = await capture(user, body);
    assert.deepEqual([early.status, early.body.detail], [400, 'Capture échouée : PayPal a refusé le paiement (ORDER_NOT_APPROVED).']);
    p.paypal.approve(order.body.id);
    p.paypal.hooks.declineNext = 'INSTRUMENT_DECLINED';
    const declined = await capture(user, body);
    assert.deepEqual([declined.status, declined.body.detail], [400, 'Capture échouée : PayPal a refusé le paiement (INSTRUMENT_DECLINED).']);

    const stolen = await capture(other, { orderID: order.body.id, offer_id: 'CREDIT_10', user_token: other.key });
    assert.deepEqual([stolen.status, stolen.body.detail], [404, 'Paiement introuvable.']);
    const foreignToken = await capture(user, { ...body, user_token: other.key });
    assert.deepEqual([foreignToken.status, foreignToken.body.detail], [400, 'Jeton utilisateur invalide : il ne correspond pas à ta session.']);
    const otherOffer = await capture(user, { ...body, offer_id: 'CREDIT_50' });
    assert.deepEqual([otherOffer.status, otherOffer.body.detail], [400, 'L’offre ne correspond pas à ce paiement.']);
    const missing = await capture(user, { offer_id: 'CREDIT_10', user_token: user.key });
    assert.deepEqual([missing.status, missing.body.detail], [400, 'Commande PayPal manquante (orderID).']);

    p.paypal.hooks.captureAmount = { value: '1.00', currency_code: 'EUR' };
    const short = await capture(user, body);
    delete p.paypal.hooks.captureAmount;
    assert.deepEqual([short.status, short.body.detail], [400, 'Montant reçu (1,00 €) différent du prix de l’offre (10,00 €) : paiement refusé.']);

    assert.equal(await balance(t, user.id), 0);
    assert.equal(await balance(t, other.id), 0);
    const [row] = await paymentRows(t, user.id);
    assert.deepEqual([row.status, row.failureKind, row.amountReceivedCents], ['refused', 'amount_mismatch', 100]);
    // The order itself (not approved, declined, then refused for its amount: one payment), and
    // three refusals recorded apart: another user's order, another user's token, another offer.
    assert.equal(await failedPayments(t), failedBefore + 4);
    assert.ok(t.logs.some((l) => l.includes('refused paypal payment of user') && l.includes('Jeton utilisateur invalide')));
  });

  it('a subscription through PayPal pays one 30-day period; another payment adds a period; Pro replaces Starter', async () => {
    const user = await register(t);
    const now = t.clock.now().getTime();
    const first = await buyWithPayPal(p, user, 'SUB_9');
    assert.equal(first.capture.status, 200, first.capture.text);
    let profile = await me(user.key);
    assert.deepEqual([profile.plan, profile.credits, profile.subscription.auto_renew, profile.subscription.provider], ['SUB_9', 10, false, 'paypal']);
    assert.equal(Date.parse(profile.subscription.renew_date), now + 30 * DAY);
    // Not renewing by itself: buying Starter again adds 30 days after the current period.
    assert.equal((await buyWithPayPal(p, user, 'SUB_9')).capture.status, 200);
    profile = await me(user.key);
    assert.deepEqual([profile.credits, Date.parse(profile.subscription.renew_date)], [20, now + 60 * DAY]);
    assert.equal((await buyWithPayPal(p, user, 'SUB_25')).capture.status, 200);
    profile = await me(user.key);
    assert.deepEqual([profile.plan, profile.credits, profile.subscription.backtest_priority, Date.parse(profile.subscription.renew_date)], ['SUB_25', 50, true, now + 30 * DAY]);
    const stop = await t.request('POST', '/api/profile/unsubscribe', { key: user.key });
    assert.equal(stop.status, 200);
    assert.equal((await me(user.key)).credits, 50, 'credits stay');
  });

  it('a Starter order captured after Pro was bought: its credits, but no downgrade (Pro, its priority and its date stay)', async () => {
    const user = await register(t);
    const starter = await createOrder(user, 'SUB_9');
    assert.equal(starter.status, 200, starter.text);
    p.paypal.approve(starter.body.id);
    assert.equal((await buyWithPayPal(p, user, 'SUB_25')).capture.status, 200);
    const proEnd = Date.parse((await me(user.key)).subscription.renew_date);
    const late = await capture(user, { orderID: starter.body.id, offer_id: 'SUB_9', user_token: user.key });
    assert.equal(late.status, 200, late.text);
    assert.equal(late.body.credits_added, 10);
    const profile = await me(user.key);
    assert.deepEqual([profile.plan, profile.credits, profile.subscription.backtest_priority, Date.parse(profile.subscription.renew_date)], ['SUB_25', 40, true, proEnd]);
  });

  it('periods paid at the same moment all count: four Starter captures at once give 120 days (MySQL read a stale renewal date)', async () => {
    const user = await register(t);
    const now = t.clock.now().getTime();
    const orders = [];
    for (let i = 0; i < 4; i++) {
      const order = await createOrder(user, 'SUB_9');
      assert.equal(order.status, 200, order.text);
      p.paypal.approve(order.body.id);
      orders.push(order.body.id as string);
    }
    const captures = await Promise.all(orders.map((orderID) => capture(user, { orderID, offer_id: 'SUB_9', user_token: user.key })));
    assert.deepEqual(captures.map((c) => c.status), [200, 200, 200, 200], captures.map((c) => c.text).join('\n'));
    const profile = await me(user.key);
    assert.equal(profile.credits, 40);
    assert.equal(Date.parse(profile.subscription.renew_date), now + 120 * DAY, 'every paid period is in the renewal date');
    const ends = (await paymentRows(t, user.id)).map((row) => row.periodEnd?.getTime()).sort();
    assert.deepEqual(ends, [30, 60, 90, 120].map((d) => now + d * DAY), 'each payment records its own period');
  });
});
