import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { register } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { buyWithCrypto, buyWithStripe, failedPayments, paymentRows, usePaymentApp } from './support/payments.js';
import { balance, ledgerRows } from './support/work.js';

const p = usePaymentApp();
const { t } = p;

const createOrder = (user: { key: string }, body: Record<string, unknown>) =>
  t.request('POST', '/api/payment/crypto/create-order', { key: user.key, json: { user_token: user.key, ...body } });

describe(`payments in crypto through a NOWPayments invoice (${TEST_DIALECT})`, () => {
  it('refuses offers under the crypto minimum; CREDIT_10 costs 10,50 € with one more credit (two for subscribers)', async () => {
    const user = await register(t);
    const failedBefore = await failedPayments(t);
    for (const offer of ['CREDIT_5', 'SUB_9']) {
      const refused = await createOrder(user, { offer_id: offer });
      assert.deepEqual([refused.status, refused.body.detail], [400, 'Paiement crypto indisponible pour cette offre : minimum 10,01 € (le pack CREDIT_10 passe à 10,50 €).']);
    }
    assert.equal(await failedPayments(t), failedBefore + 2);
    assert.deepEqual((await paymentRows(t, user.id)).map((r) => [r.offerId, r.status, r.failureKind]), [
      ['CREDIT_5', 'refused', 'method_unavailable'],
      ['SUB_9', 'refused', 'method_unavailable'],
    ]);

    const { order, ipn } = await buyWithCrypto(p, user, 'CREDIT_10');
    assert.deepEqual([order.amount_eur, order.credits], [10.5, 13]);
    assert.equal(order.payment_url, `${p.nowpayments.base}/payment/?iid=${order.id}`);
    const sent = p.nowpayments.invoices.get(order.id)!;
    assert.deepEqual([sent.price_amount, sent.price_currency, sent.pay_currency, sent.order_id], ['10.5', 'eur', 'usdttrc20', order.reference]);
    assert.equal(sent.ipn_callback_url, `${t.url}/api/payment/crypto/ipn`);
    assert.equal(sent.success_url, `http://web.bt.test/pricing?payment=crypto&status=success&token=${order.reference}`);
    assert.deepEqual([ipn.status, ipn.body.status], [200, 'paid']);
    assert.equal(await balance(t, user.id), 13);

    // A subscriber (Starter through Stripe): 12 + 10 % rounded up (2) + 2.
    await buyWithStripe(p, user, 'SUB_9');
    const subscriber = await buyWithCrypto(p, user, 'CREDIT_10');
    assert.equal(subscriber.order.credits, 16);
    assert.equal(await balance(t, user.id), 13 + 10 + 16);
  });

  it('buys CREDIT_20, CREDIT_50 and Pro in the coin asked for; only a finished payment credits', async () => {
    const user = await register(t);
    const order = await createOrder(user, { offer_id: 'CREDIT_20', currency: 'BTC' });
    assert.equal(order.status, 200, order.text);
    assert.equal(p.nowpayments.invoices.get(order.body.id)!.pay_currency, 'btc');
    for (const status of ['waiting', 'confirming', 'confirmed', 'sending']) {
      const pending = await p.nowpayments.notify(order.body.id, status);
      assert.deepEqual([pending.status, pending.body.status], [200, status]);
    }
    assert.equal(await balance(t, user.id), 0, 'nothing before finished');
    const poll = await t.request('GET', `/api/payment/status?payment=crypto&reference=${order.body.reference}`, { key: user.key });
    assert.deepEqual([poll.body.status, poll.body.message], ['created', 'Paiement en attente de confirmation.']);
    assert.equal((await p.nowpayments.notify(order.body.id, 'finished')).status, 200);
    assert.equal(await balance(t, user.id), 25);
    const paid = await t.request('GET', `/api/payment/status?payment=crypto&token=${order.body.reference}`, { key: user.key });
    assert.deepEqual([paid.body.status, paid.body.credits, paid.body.amount_eur, paid.body.message], ['paid', 25, 20, 'Paiement confirmé : 25 crédits ajoutés.']);
    assert.match(paid.body.invoice.url, /^\/api\/profile\/invoices\/\d+$/);

    await buyWithCrypto(p, user, 'CREDIT_50');
    await buyWithCrypto(p, user, 'SUB_25');
    const me = (await t.request('GET', '/api/me', { key: user.key })).body;
    assert.deepEqual([me.credits, me.plan, me.subscription.provider, me.subscription.auto_renew, me.subscription.backtest_priority], [25 + 75 + 30, 'SUB_25', 'crypto', false, true]);

    const failing = await createOrder(user, { offer_id: 'CREDIT_20' });
    assert.equal((await p.nowpayments.notify(failing.body.id, 'partially_paid')).status, 200);
    const expiring = await createOrder(user, { offer_id: 'CREDIT_20' });
    assert.equal((await p.nowpayments.notify(expiring.body.id, 'expired')).status, 200);
    const rows = await paymentRows(t, user.id);
    assert.deepEqual(rows.slice(-2).map((r) => [r.status, r.failureKind]), [['failed', 'partially_paid'], ['cancelled', 'expired']]);
    assert.equal(await balance(t, user.id), 130);
  });

  it('an IPN replayed 10 times in a row and 10 times at once credits once', async () => {
    const user = await register(t);
    const { order } = await buyWithCrypto(p, user, 'CREDIT_50');
    for (let i = 0; i < 10; i++) assert.equal((await p.nowpayments.notify(order.id, 'finished')).status, 200);
    const together = await Promise.all(Array.from({ length: 10 }, () => p.nowpayments.notify(order.id, 'finished')));
    assert.deepEqual(together.map((d) => d.status), Array(10).fill(200));
    assert.equal(await balance(t, user.id), 75);
    assert.equal((await ledgerRows(t, user.id)).length, 1);
    assert.equal((await ledgerRows(t, user.id))[0].reference, `crypto:${p.nowpayments.sent.at(-1)!.payment_id}`);

    // Concurrent first notifications of a fresh payment.
    const fresh = await createOrder(user, { offer_id: 'CREDIT_20' });
    const race = await Promise.all(Array.from({ length: 10 }, () => p.nowpayments.notify(fresh.body.id, 'finished')));
    assert.deepEqual(race.map((d) => d.status), Array(10).fill(200));
    assert.equal(await balance(t, user.id), 100);
    assert.equal(await t.db.models.Invoice.count({ where: { userId: user.id } }), 2);
  });

  it('a second payment of a paid invoice (another payment id) credits nothing more, and is logged to be refunded', async () => {
    const user = await register(t);
    const { order } = await buyWithCrypto(p, user, 'CREDIT_20');
    const first = p.nowpayments.sent.at(-1)!.payment_id;
    const again = await p.nowpayments.notify(order.id, 'finished', { overrides: { payment_id: 987654321 } });
    assert.equal(again.status, 200);
    assert.equal(await balance(t, user.id), 25);
    assert.equal((await ledgerRows(t, user.id)).length, 1);
    const [row] = await paymentRows(t, user.id);
    assert.equal(row.transactionId, String(first));
    assert.ok(t.logs.some((l) => l.includes(`paid again (987654321, after ${first}): not credited twice, refund it`)), t.logs.slice(-5).join('\n'));
    // A replay of the first is no second payment: nothing logged for it.
    const logged = t.logs.length;
    assert.equal((await p.nowpayments.notify(order.id, 'finished')).status, 200);
    assert.ok(!t.logs.slice(logged).some((l) => l.includes('paid again')));
  });

  it('refuses IPNs with a bad signature, an unknown order or another price; recorded, logged, balance unchanged', async () => {
    const user = await register(t);
    const order = await createOrder(user, { offer_id: 'CREDIT_20' });
    const id = order.body.id;
    const failedBefore = await failedPayments(t);
    const forged = [
      await p.nowpayments.notify(id, 'finished', { secret: 'not-the-secret' }),
      await p.nowpayments.notify(id, 'finished', { signatureHeader: '' }),
      await p.nowpayments.notify(id, 'finished', { signatureHeader: 'ab'.repeat(64) }),
      // Signed for 20 €, sent saying 2000 €.
      await p.nowpayments.notify(id, 'finished', { overrides: { price_amount: 2000 }, signatureHeader: p.nowpayments.signature(p.nowpayments.ipnBody(id, 'finished')) }),
    ];
    for (const answer of forged) assert.deepEqual([answer.status, answer.body.detail], [400, 'Signature invalide.']);
    const unknown = await p.nowpayments.notify(id, 'finished', { overrides: { order_id: 'pay_unknown' } });
    assert.deepEqual([unknown.status, unknown.body.detail], [400, 'Paiement inconnu.']);
    const cheaper = await p.nowpayments.notify(id, 'finished', { overrides: { price_amount: 1 } });
    assert.deepEqual([cheaper.status, cheaper.body.detail], [400, 'Montant reçu (1,00 €) différent du prix de l’offre (20,00 €) : paiement refusé.']);
    const dollars = await p.nowpayments.notify(id, 'finished', { overrides: { price_currency: 'usd' } });
    assert.deepEqual([dollars.status, dollars.body.detail], [400, 'Devise reçue (USD) différente de celle de l’offre (EUR) : paiement refusé.']);
    // 4 bad signatures, 1 unknown payment, and the order itself refused (amount, then currency).
    assert.equal(await failedPayments(t), failedBefore + 6);
    const [row] = await paymentRows(t, user.id);
    assert.deepEqual([row.status, row.failureKind], ['refused', 'currency_mismatch']);
    assert.equal(await balance(t, user.id), 0);
    assert.ok(t.logs.some((l) => l.startsWith('payments: refused crypto callback: x-nowpayments-sig refused')));
  });

  it('checks the coin and the buyer before calling the provider; a cancelled invoice paid later still credits', async () => {
    const user = await register(t);
    const other = await register(t);
    const coin = await createOrder(user, { offer_id: 'CREDIT_20', currency: 'usdt trc20' });
    assert.deepEqual([coin.status, coin.body.detail], [400, 'Crypto-monnaie invalide : « usdt trc20 » (par exemple usdttrc20).']);
    const foreign = await createOrder(user, { offer_id: 'CREDIT_20', user_token: other.key });
    assert.deepEqual([foreign.status, foreign.body.detail], [400, 'Jeton utilisateur invalide : il ne correspond pas à ta session.']);
    const order = await createOrder(user, { offer_id: 'CREDIT_20' });
    const cancelled = await t.request('POST', '/api/payment/cancel', { key: user.key, json: { payment: 'crypto', token: order.body.reference } });
    assert.deepEqual([cancelled.status, cancelled.body.status], [200, 'cancelled']);
    const notMine = await t.request('POST', '/api/payment/cancel', { key: other.key, json: { payment: 'crypto', token: order.body.reference } });
    assert.deepEqual([notMine.status, notMine.body.detail], [404, 'Paiement introuvable.']);
    assert.equal((await p.nowpayments.notify(order.body.id, 'finished')).status, 200);
    assert.equal(await balance(t, user.id), 25);
  });
});
