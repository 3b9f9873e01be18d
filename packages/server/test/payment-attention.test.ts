import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { register } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { buyWithCrypto, buyWithPayPal, paymentRows, usePaymentApp } from './support/payments.js';
import { balance, makeAdmin } from './support/work.js';

// Payment situations that need the operator (docs/payments.md "Situations for the admin"): each is
// recorded once, through the real provider paths, and listed and closed through the admin API.
// Before, they were only log lines.

const p = usePaymentApp();
const { t } = p;

const items = (where: Record<string, unknown>) => t.db.models.PaymentAttention.findAll({ where, order: [['id', 'ASC']] });
const cryptoOrder = (key: string, offerId: string) => t.request('POST', '/api/payment/crypto/create-order', { key, json: { offer_id: offerId, user_token: key } });

describe(`payment situations for the admin (${TEST_DIALECT})`, () => {
  it('a crypto invoice paid twice: one paid_twice item for the second payment, however often and however concurrently it is notified', async () => {
    const user = await register(t);
    const { order } = await buyWithCrypto(p, user, 'CREDIT_20');
    const first = p.nowpayments.sent.at(-1)!.payment_id;
    const again = () => p.nowpayments.notify(order.id, 'finished', { overrides: { payment_id: 555000111 } });
    assert.equal((await again()).status, 200);
    assert.equal((await again()).status, 200);
    assert.deepEqual((await Promise.all(Array.from({ length: 10 }, again))).map((d) => d.status), Array(10).fill(200));
    assert.equal(await balance(t, user.id), 25, 'credited once');
    const [row] = await paymentRows(t, user.id);
    const found = await items({ userId: user.id });
    assert.deepEqual(
      found.map((i) => [i.kind, i.provider, i.reference, i.paymentId, i.amountCents, i.currency, i.resolvedAt]),
      [['paid_twice', 'crypto', '555000111', row.id, 2000, 'EUR', null]],
    );
    assert.match(found[0].message, new RegExp(`paid again \\(555000111, after ${first}\\): not credited twice, refund it`));
    assert.ok(t.logs.some((l) => l === found[0].message || l.includes(found[0].message)), 'the log line is still written');
    // A replay of the first payment is no second payment: no item.
    assert.equal((await p.nowpayments.notify(order.id, 'finished')).status, 200);
    assert.equal((await items({ userId: user.id })).length, 1);
  });

  it('a payment for an account deleted meanwhile: refused and one account_deleted item, replays included', async () => {
    const user = await register(t);
    const order = await cryptoOrder(user.key, 'CREDIT_20');
    assert.equal(order.status, 200, order.text);
    assert.equal((await t.request('POST', '/api/user/delete_account', { key: user.key, json: { current_password: user.password } })).status, 200);
    const notices = await Promise.all(Array.from({ length: 10 }, () => p.nowpayments.notify(order.body.id, 'finished')));
    assert.ok(notices.every((d) => d.status === 200), notices.map((d) => d.status).join(','));
    assert.equal((await p.nowpayments.notify(order.body.id, 'finished')).status, 200);
    const [row] = await paymentRows(t, user.id);
    assert.deepEqual([row.status, row.failureKind], ['refused', 'account_deleted']);
    const found = await items({ paymentId: row.id });
    assert.deepEqual(found.map((i) => [i.kind, i.provider, i.userId, i.amountCents, i.resolvedAt]), [['account_deleted', 'crypto', user.id, 2000, null]]);
    assert.match(found[0].message, /paid for a deleted account: refund it$/);
  });

  it('a Stripe Checkout opened before a PayPal period of the same plan and paid after it: one days_paid_twice item, a replay adds none', async () => {
    const user = await register(t);
    const session = await t.request('POST', '/api/payment/stripe/session', { key: user.key, json: { offer_id: 'SUB_9', user_token: user.key } });
    assert.equal(session.status, 200, session.text);
    await buyWithPayPal(p, user, 'SUB_9');
    const { events } = await p.stripe.complete(session.body.id);
    for (const e of events) assert.equal((await p.stripe.send(e)).status, 200);
    const stripeRow = (await paymentRows(t, user.id)).find((r) => r.provider === 'stripe')!;
    assert.equal(stripeRow.status, 'paid');
    const found = await items({ userId: user.id });
    assert.deepEqual(found.map((i) => [i.kind, i.provider, i.reference, i.paymentId, i.amountCents]), [['days_paid_twice', 'stripe', stripeRow.reference, stripeRow.id, 900]]);
    assert.match(found[0].message, /days paid twice, to refund or extend by hand$/);
  });

  it('the admin lists open items (status open, resolved, all; paged), closes one with a note (409 twice, 404 unknown); others get 401/403', async () => {
    const admin = await makeAdmin(t);
    const user = await register(t);
    const { order } = await buyWithCrypto(p, user, 'CREDIT_10');
    assert.equal((await p.nowpayments.notify(order.id, 'finished', { overrides: { payment_id: 777000222 } })).status, 200);
    const [item] = await items({ reference: '777000222' });
    const [row] = await paymentRows(t, user.id);

    const open = await t.request('GET', '/api/admin/payments/attention', { key: admin.key });
    assert.equal(open.status, 200, open.text);
    const listed = open.body.items.find((i: { id: number }) => i.id === item.id);
    assert.deepEqual(
      [listed.kind, listed.label, listed.provider, listed.provider_reference, listed.payment_reference, listed.user_id, listed.amount_cents, listed.resolved_at],
      ['paid_twice', 'Paiement reçu deux fois (la seconde transaction n’a rien crédité) : à rembourser.', 'crypto', '777000222', row.reference, user.id, order.amount_eur * 100, null],
    );
    assert.equal(open.body.status, 'open');
    assert.equal(open.body.open, open.body.total);
    const page = await t.request('GET', '/api/admin/payments/attention?limit=1&offset=0', { key: admin.key });
    assert.deepEqual([page.status, page.body.items.length, page.body.total], [200, 1, open.body.total]);

    const resolved = await t.request('POST', `/api/admin/payments/attention/${item.id}/resolve`, { key: admin.key, json: { note: 'Remboursé sur NOWPayments le 29/11.' } });
    assert.equal(resolved.status, 200, resolved.text);
    assert.deepEqual([resolved.body.detail, resolved.body.item.resolved_by, resolved.body.item.note], ['Situation de paiement close.', admin.id, 'Remboursé sur NOWPayments le 29/11.']);
    assert.ok(resolved.body.item.resolved_at);

    const again = await t.request('POST', `/api/admin/payments/attention/${item.id}/resolve`, { key: admin.key, json: {} });
    assert.deepEqual([again.status, again.body.detail], [409, 'Cette situation de paiement est déjà close.']);
    assert.equal((await item.reload()).note, 'Remboursé sur NOWPayments le 29/11.', 'the first note stays');
    const unknown = await t.request('POST', '/api/admin/payments/attention/99999999/resolve', { key: admin.key, json: {} });
    assert.deepEqual([unknown.status, unknown.body.detail], [404, 'Situation de paiement introuvable.']);
    for (const bad of ['abc', '0', '-1', '1e3']) {
      const res = await t.request('POST', `/api/admin/payments/attention/${bad}/resolve`, { key: admin.key, json: {} });
      assert.deepEqual([res.status, res.body.detail], [400, 'Identifiant de situation invalide (un entier positif).'], bad);
    }
    const long = await t.request('POST', `/api/admin/payments/attention/${item.id}/resolve`, { key: admin.key, json: { note: 'x'.repeat(501) } });
    assert.equal(long.status, 400);

    const stillOpen = await t.request('GET', '/api/admin/payments/attention?status=open', { key: admin.key });
    assert.ok(!stillOpen.body.items.some((i: { id: number }) => i.id === item.id), 'no longer open');
    const closed = await t.request('GET', '/api/admin/payments/attention?status=resolved', { key: admin.key });
    assert.ok(closed.body.items.some((i: { id: number }) => i.id === item.id));
    const all = await t.request('GET', '/api/admin/payments/attention?status=all', { key: admin.key });
    assert.equal(all.body.total, stillOpen.body.total + closed.body.total);
    const badStatus = await t.request('GET', '/api/admin/payments/attention?status=done', { key: admin.key });
    assert.deepEqual([badStatus.status, badStatus.body.detail], [400, 'Statut inconnu : « done » (open, resolved ou all).']);
    const badPage = await t.request('GET', '/api/admin/payments/attention?limit=0', { key: admin.key });
    assert.equal(badPage.status, 400);

    const other = await register(t);
    assert.equal((await t.request('GET', '/api/admin/payments/attention', { key: other.key })).status, 403);
    assert.equal((await t.request('POST', `/api/admin/payments/attention/${item.id}/resolve`, { key: other.key, json: {} })).status, 403);
    assert.equal((await t.request('GET', '/api/admin/payments/attention')).status, 401);
    assert.equal((await t.request('POST', `/api/admin/payments/attention/${item.id}/resolve`, { json: {} })).status, 401);
  });

  it('two admins closing the same item at once: one 200, the others 409', async () => {
    const admin = await makeAdmin(t);
    const user = await register(t);
    const { order } = await buyWithCrypto(p, user, 'CREDIT_20');
    assert.equal((await p.nowpayments.notify(order.id, 'finished', { overrides: { payment_id: 888000333 } })).status, 200);
    const [item] = await items({ reference: '888000333' });
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => t.request('POST', `/api/admin/payments/attention/${item.id}/resolve`, { key: admin.key, json: { note: `n${i}` } })));
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409, 409, 409, 409, 409]);
  });
});

describe(`PayPal situations for the admin, closed by PayPal's own later notice where it comes (${TEST_DIALECT})`, () => {
  async function pendingPack() {
    const user = await register(t);
    p.paypal.hooks.pendingNext = 'ECHECK';
    const { order, capture } = await buyWithPayPal(p, user, 'CREDIT_10');
    assert.equal(capture.body.status, 'pending', capture.text);
    return { user, captureId: p.paypal.captureOf(order.id) as string };
  }

  it('a capture PayPal holds PENDING is an open item until PayPal completes it (closed, no admin) or denies it', async () => {
    const completed = await pendingPack();
    const [open] = await items({ userId: completed.user.id });
    assert.deepEqual([open.kind, open.provider, open.reference, open.amountCents, open.resolvedAt], ['capture_pending', 'paypal', completed.captureId, 1000, null]);
    const { event } = await p.paypal.settleCapture(completed.captureId, 'COMPLETED');
    await Promise.all(Array.from({ length: 5 }, () => p.paypal.send(event)));
    assert.equal(await balance(t, completed.user.id), 12);
    const [closed] = await items({ userId: completed.user.id });
    assert.ok(closed.resolvedAt, 'closed by the completion');
    assert.deepEqual([closed.resolvedBy, closed.note], [null, 'Capture confirmée par PayPal : paiement crédité.']);

    const denied = await pendingPack();
    assert.equal((await p.paypal.settleCapture(denied.captureId, 'DENIED')).delivery!.status, 200);
    const [gone] = await items({ userId: denied.user.id });
    assert.ok(gone.resolvedAt);
    assert.equal(gone.note, 'Capture refusée par PayPal : rien n’a été crédité.');

    const left = await pendingPack();
    assert.equal((await items({ userId: left.user.id, resolvedAt: null })).length, 1, 'neither came: still open for the admin');
  });

  it('a refund notified before the payment was confirmed: one item however often PayPal retries, closed when it applies after the buyer’s return', async () => {
    const user = await register(t);
    const order = await t.request('POST', '/api/payment/paypal/create-order', { key: user.key, json: { offer_id: 'CREDIT_10', user_token: user.key } });
    p.paypal.approve(order.body.id);
    const capture = p.paypal.captureAtPayPal(order.body.id);
    const early = await p.paypal.refund(capture.id, { amount: 500 });
    assert.equal(early.delivery!.status, 409);
    assert.deepEqual((await Promise.all(Array.from({ length: 5 }, () => p.paypal.send(early.event)))).map((d) => d.status), Array(5).fill(409));
    const [row] = await paymentRows(t, user.id);
    const [open] = await items({ paymentId: row.id });
    assert.deepEqual([(await items({ paymentId: row.id })).length, open.kind, open.reference, open.amountCents, open.resolvedAt], [1, 'reversal_before_payment', row.reference, 500, null]);
    const captured = await t.request('POST', '/api/payment/paypal/capture-order', { key: user.key, json: { orderID: order.body.id, offer_id: 'CREDIT_10', user_token: user.key } });
    assert.equal(captured.status, 200, captured.text);
    assert.equal((await p.paypal.send(early.event)).status, 200);
    assert.equal(await balance(t, user.id), 6);
    const [closed] = await items({ paymentId: row.id });
    assert.ok(closed.resolvedAt, 'closed once the refund applied');
    assert.equal(closed.resolvedBy, null);
  });

  it('a PayPal dispute won after the capture was reversed: one dispute_won_after_reversal item (the credits stay taken), replays included', async () => {
    const user = await register(t);
    const { order } = await buyWithPayPal(p, user, 'CREDIT_10');
    const captureId = p.paypal.captureOf(order.id) as string;
    assert.equal((await p.paypal.dispute(captureId, 'open')).delivery!.status, 200);
    assert.equal((await p.paypal.refund(captureId, { reverse: true })).delivery!.status, 200);
    const won = await p.paypal.dispute(captureId, 'RESOLVED_SELLER_FAVOUR');
    assert.equal(won.delivery!.status, 200);
    await Promise.all(Array.from({ length: 5 }, () => p.paypal.send(won.event)));
    assert.equal(await balance(t, user.id), 0, 'the reversal’s credits stay taken');
    const [row] = await paymentRows(t, user.id);
    const found = await items({ paymentId: row.id });
    assert.deepEqual(found.map((i) => [i.kind, i.provider, i.amountCents, i.resolvedAt]), [['dispute_won_after_reversal', 'paypal', 1000, null]]);
  });
});
