import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { register } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { buyWithPayPal, buyWithStripe, failedPayments, usePaymentApp } from './support/payments.js';
import { makeAdmin } from './support/work.js';

const p = usePaymentApp();
const { t } = p;

describe(`payments in the admin statistics and billing files (${TEST_DIALECT})`, () => {
  it('purchases and failed attempts through the local providers reach the event log, the breakdowns and the details', async () => {
    const admin = await makeAdmin(t);
    const reset = await t.request('POST', '/api/admin/metrics/reset', { key: admin.key, json: {} });
    assert.equal(reset.status, 200);
    const buyer = await register(t);
    const stripe = await buyWithStripe(p, buyer, 'CREDIT_10');
    assert.equal(stripe.deliveries[0].status, 200, JSON.stringify(stripe.deliveries[0].body));
    const paypal = await buyWithPayPal(p, buyer, 'CREDIT_20');
    assert.equal(paypal.capture.status, 200, paypal.capture.text);

    // A declined capture, then refused again for its amount: one attempt, one failed payment, of the last kind.
    const order = await t.request('POST', '/api/payment/paypal/create-order', { key: buyer.key, json: { offer_id: 'CREDIT_5', user_token: buyer.key } });
    const body = { orderID: order.body.id, offer_id: 'CREDIT_5', user_token: buyer.key };
    p.paypal.approve(order.body.id);
    p.paypal.hooks.declineNext = 'INSTRUMENT_DECLINED';
    assert.equal((await t.request('POST', '/api/payment/paypal/capture-order', { key: buyer.key, json: body })).status, 400);
    p.paypal.hooks.captureAmount = { value: '1.00', currency_code: 'EUR' };
    assert.equal((await t.request('POST', '/api/payment/paypal/capture-order', { key: buyer.key, json: body })).status, 400);
    delete p.paypal.hooks.captureAmount;
    // A forged webhook: refused, with nobody to attach it to.
    const forged = await p.stripe.send({ id: 'evt_forged', object: 'event', type: 'checkout.session.completed', data: { object: { id: 'cs_forged' } } }, { signatureHeader: 'garbage' });
    assert.equal(forged.status, 400);

    const get = async (path: string) => (await t.request('GET', path, { key: admin.key })).body;
    const overview = await get('/api/admin/metrics/overview?range=all');
    assert.deepEqual([overview.total_sales_eur, overview.total_credits_bought, overview.failed_payments], [30, 12 + 25, 2]);
    assert.equal(overview.failed_payments, (await failedPayments(t)) - 0, 'one failed payment per attempt, as the payments table counts them');
    assert.deepEqual((await get('/api/admin/metrics/breakdown?kind=sales_by_method&range=all')).items, [
      { method: 'paypal', count: 1, total_eur: 20, refunds_eur: 0, net_eur: 20 },
      { method: 'stripe', count: 1, total_eur: 10, refunds_eur: 0, net_eur: 10 },
    ]);
    assert.deepEqual((await get('/api/admin/metrics/breakdown?kind=failed_payments_by_kind&range=all')).items, [
      { kind: 'amount_mismatch', count: 1, total_eur: 5 },
      { kind: 'bad_signature', count: 1, total_eur: 0 },
    ]);
    const sales = await get('/api/admin/metrics/details/sales?range=all');
    assert.deepEqual(sales.rows.map((r: Record<string, unknown>) => [r.user, r.label, r.method, r.amount_eur]), [
      [buyer.username, 'Pack 25 crédits', 'paypal', 20],
      [buyer.username, 'Pack 12 crédits', 'stripe', 10],
    ]);
    const top = (await get('/api/admin/metrics/breakdown?kind=top_customers&range=all')).items;
    assert.deepEqual(top, [{ user: buyer.username, user_id: buyer.id, orders: 2, sales_eur: 30, credits: 37 }]);
    const totals = await get('/api/admin/global_stats');
    assert.deepEqual([totals.total_sales_eur, totals.total_credits_bought, totals.failed_payments], [30, 37, 2]);
    const history = await get(`/api/admin/user_history/${buyer.id}`);
    assert.deepEqual(history.history.map((h: Record<string, unknown>) => [h.type, h.method, h.price_eur, h.credits_delta]), [
      ['purchase', 'paypal', 20, 25],
      ['purchase', 'stripe', 10, 12],
    ]);

    // A reset then a rebuild gives the same figures back, from the ledger and the payments table.
    await t.request('POST', '/api/admin/metrics/reset', { key: admin.key, json: {} });
    await t.request('POST', '/api/admin/metrics/rebuild_from_users', { key: admin.key, json: {} });
    const rebuilt = await get('/api/admin/metrics/overview?range=all');
    assert.deepEqual([rebuilt.total_sales_eur, rebuilt.total_credits_bought, rebuilt.failed_payments], [30, 37, 2]);
  });

  it('a subscription is a purchase; stopping it is one unsubscription, whether the profile or Stripe says so', async () => {
    const user = await register(t);
    await buyWithStripe(p, user, 'SUB_9');
    const purchase = await t.db.models.AppEvent.findOne({ where: { kind: 'purchase', userId: user.id } });
    assert.deepEqual([purchase?.label, purchase?.method, purchase?.amountCents, purchase?.credits], ['Starter', 'stripe', 900, 10]);
    const stop = await t.request('POST', '/api/profile/unsubscribe', { key: user.key });
    assert.equal(stop.status, 200, stop.text);
    await p.stripe.settle();
    assert.equal((await t.request('POST', '/api/profile/unsubscribe', { key: user.key })).status, 200);
    const events = await t.db.models.AppEvent.findAll({ where: { kind: 'unsubscription', userId: user.id } });
    assert.deepEqual(events.map((e) => e.label), ['SUB_9']);
  });

  it("the invoices are the billing files: listed, downloaded, deleted, and drawn again for their owner", async () => {
    const admin = await makeAdmin(t);
    const buyer = await register(t);
    await buyWithStripe(p, buyer, 'CREDIT_20');
    const invoice = await t.db.models.Invoice.findOne({ where: { userId: buyer.id } });
    assert.ok(invoice);
    const rel = invoice!.path.replace(/^invoices\//, '');
    const list = (await t.request('GET', '/api/admin/factures_list', { key: admin.key })).body.items;
    const item = list.find((i: { rel: string }) => i.rel === rel);
    assert.ok(item, `${rel} listed`);
    assert.equal(item.bytes, invoice!.bytes);
    const info = (await t.request('GET', '/api/admin/factures_info', { key: admin.key })).body;
    assert.ok(info.count >= 1 && info.bytes >= invoice!.bytes!);
    const pdf = await fetch(`${t.url}/api/admin/factures_download?rel=${encodeURIComponent(rel)}&apiKey=${admin.key}`);
    assert.equal(pdf.status, 200);
    assert.equal(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString(), '%PDF-');
    const deleted = await t.request('POST', '/api/admin/factures_delete', { key: admin.key, json: { rel } });
    assert.equal(deleted.status, 200);
    assert.equal((await t.request('GET', `/api/admin/factures_download?rel=${encodeURIComponent(rel)}`, { key: admin.key })).status, 404);
    // The invoice stays recorded: its owner's link draws the PDF again.
    const again = await fetch(`${t.url}/api/profile/invoices/${invoice!.number}?apiKey=${buyer.key}`);
    assert.equal(again.status, 200);
    assert.equal(Buffer.from(await again.arrayBuffer()).subarray(0, 5).toString(), '%PDF-');
  });
});
