import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { register } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { buyWithCrypto, buyWithPayPal, buyWithStripe, usePaymentApp } from './support/payments.js';
import { makeAdmin } from './support/work.js';

// The admin's sales net of refunds (docs/admin.md "Overview", "Refunds"): real payments through the
// local Stripe, PayPal and NOWPayments, refunded and disputed by their own notices. Before, the
// statistics counted every sale whole, refunded or not, and said nothing of refunds.

const p = usePaymentApp();
const { t } = p;

describe(`admin statistics: sales net of refunds (${TEST_DIALECT})`, () => {
  it('overview, breakdown, details and global_stats show refunds and net sales; replays change nothing; a rebuild gives them back', async () => {
    const admin = await makeAdmin(t);
    const get = async (path: string) => {
      const res = await t.request('GET', path, { key: admin.key });
      assert.equal(res.status, 200, `${path}: ${res.text}`);
      return res.body;
    };
    const reset = await t.request('POST', '/api/admin/metrics/reset', { key: admin.key, json: {} });
    assert.equal(reset.status, 200);
    const base = await get('/api/admin/global_stats');

    // Four sales: Stripe 20 € (5 € refunded), PayPal 10 € (refunded in full), crypto 20 € (refunded),
    // Stripe 10 € (disputed, then won: nothing gone back).
    const a = await register(t);
    const stripePack = await buyWithStripe(p, a, 'CREDIT_20');
    const intent = p.stripe.sessions.get(stripePack.session.id)!.payment_intent as string;
    const b = await register(t);
    const paypalPack = await buyWithPayPal(p, b, 'CREDIT_10');
    assert.equal(paypalPack.capture.status, 200);
    const c = await register(t);
    const cryptoPack = await buyWithCrypto(p, c, 'CREDIT_20');
    const d = await register(t);
    const disputed = await buyWithStripe(p, d, 'CREDIT_10');
    const disputedIntent = p.stripe.sessions.get(disputed.session.id)!.payment_intent as string;

    const partial = await p.stripe.refund(intent, { amount: 500 });
    assert.equal(partial.delivery!.status, 200);
    assert.equal((await p.paypal.refund(p.paypal.captureOf(paypalPack.order.id))).delivery!.status, 200);
    assert.equal((await p.nowpayments.notify(cryptoPack.order.id, 'refunded')).status, 200);
    assert.equal((await p.stripe.dispute(disputedIntent, 'needs_response')).delivery!.status, 200);
    const midway = await get('/api/admin/metrics/overview?range=all');
    assert.deepEqual([midway.total_sales_eur, midway.refunds_eur, midway.net_sales_eur], [60, 45, 15], 'an open dispute holds its money');
    assert.equal((await p.stripe.dispute(disputedIntent, 'won')).delivery!.status, 200);
    // Replays, and ten copies at once, count once.
    assert.equal((await p.stripe.send(partial.event)).status, 200);
    await Promise.all(Array.from({ length: 10 }, () => p.stripe.send(partial.event)));
    assert.equal((await p.nowpayments.notify(cryptoPack.order.id, 'refunded')).status, 200);

    const overview = await get('/api/admin/metrics/overview?range=all');
    assert.deepEqual([overview.total_sales_eur, overview.refunds_eur, overview.net_sales_eur, overview.total_credits_bought], [60, 35, 25, 25 + 12 + 25 + 12]);
    assert.deepEqual(await get('/api/admin/metrics/breakdown?kind=sales_by_method&range=all').then((r) => r.items), [
      { method: 'stripe', count: 2, total_eur: 30, refunds_eur: 5, net_eur: 25 },
      { method: 'crypto', count: 1, total_eur: 20, refunds_eur: 20, net_eur: 0 },
      { method: 'paypal', count: 1, total_eur: 10, refunds_eur: 10, net_eur: 0 },
    ]);
    const details = await get('/api/admin/metrics/details?kpi=refunds_eur&range=all');
    const rows = (details.rows as { user_id: number; method: string; kind: string; amount_eur: number; credits: number; label: string }[])
      .map((r) => [r.user_id, r.method, r.kind, r.amount_eur, r.credits, r.label])
      .sort((x, y) => Number(x[0]) - Number(y[0]));
    assert.deepEqual(rows, [
      [a.id, 'stripe', 'refund', 5, 7, 'Pack 25 crédits'],
      [b.id, 'paypal', 'refund', 10, 12, 'Pack 12 crédits'],
      [c.id, 'crypto', 'refund', 20, 25, 'Pack 25 crédits'],
      [d.id, 'stripe', 'dispute_won', 0, 0, 'Pack 12 crédits'],
    ]);

    // The fallback totals, from the payments table.
    const stats = await get('/api/admin/global_stats');
    assert.deepEqual(
      [stats.total_sales_eur - base.total_sales_eur, stats.refunds_eur - base.refunds_eur, stats.net_sales_eur - base.net_sales_eur],
      [60, 35, 25],
    );

    // Reset, then rebuild from the tables: the same refunds.
    assert.equal((await t.request('POST', '/api/admin/metrics/reset', { key: admin.key, json: {} })).status, 200);
    assert.equal((await get('/api/admin/metrics/overview?range=all')).refunds_eur, 0);
    const rebuilt = await t.request('POST', '/api/admin/metrics/rebuild_from_users', { key: admin.key, json: {} });
    assert.equal(rebuilt.status, 200, rebuilt.text);
    const after = await get('/api/admin/metrics/overview?range=all');
    assert.deepEqual([after.total_sales_eur, after.refunds_eur, after.net_sales_eur], [60, 35, 25]);
    assert.equal((await get('/api/admin/metrics/details?kpi=refunds&range=all')).total, 4);
    // A second rebuild adds nothing.
    const again = await t.request('POST', '/api/admin/metrics/rebuild_from_users', { key: admin.key, json: {} });
    assert.equal(again.body.added, 0);
  });
});
