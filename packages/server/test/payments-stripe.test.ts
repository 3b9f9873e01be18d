import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StripeCheckout } from '../src/payments/stripe.js';
import { register, startTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { STRIPE_KEYS, buyWithStripe, failedPayments, paymentRows, usePaymentApp } from './support/payments.js';
import { balance, ledgerRows } from './support/work.js';

const p = usePaymentApp();
const { t } = p;
const DAY = 86_400_000;

const me = async (key: string) => (await t.request('GET', '/api/me', { key })).body;

describe(`payments through Stripe Checkout (${TEST_DIALECT})`, () => {
  it('buys each pack: the signed webhook credits the offer once, records the payment and numbers an invoice', async () => {
    const user = await register(t);
    const expected = { CREDIT_5: [500, 5], CREDIT_10: [1000, 12], CREDIT_20: [2000, 25], CREDIT_50: [5000, 75] } as const;
    let total = 0;
    for (const [offer, [cents, credits]] of Object.entries(expected)) {
      const { session, deliveries } = await buyWithStripe(p, user, offer);
      assert.deepEqual(deliveries.map((d) => d.status), [200]);
      assert.match(session.url, /\/c\/pay\/cs_test_/);
      assert.deepEqual([session.offer_id, session.amount_eur, session.credits], [offer, cents / 100, credits]);
      // What the SDK sent: a one-off payment priced by the server, our reference in the metadata.
      const sent = p.stripe.requests.findLast((r) => r.path === '/v1/checkout/sessions')!.body;
      assert.equal(sent.mode, 'payment');
      assert.deepEqual(sent.line_items[0].price_data, { currency: 'eur', unit_amount: String(cents), product_data: { name: expected[offer as keyof typeof expected] && sent.line_items[0].price_data.product_data.name } });
      assert.equal(sent.metadata.offer_id, offer);
      assert.equal(sent.success_url, 'http://web.bt.test/pricing?payment=stripe&status=success&session_id={CHECKOUT_SESSION_ID}');
      total += credits;
      assert.equal(await balance(t, user.id), total);
    }
    const rows = await paymentRows(t, user.id);
    assert.deepEqual(rows.map((r) => [r.offerId, r.status, r.kind, r.amountExpectedCents, r.amountReceivedCents, r.currencyReceived]), [
      ['CREDIT_5', 'paid', 'purchase', 500, 500, 'EUR'],
      ['CREDIT_10', 'paid', 'purchase', 1000, 1000, 'EUR'],
      ['CREDIT_20', 'paid', 'purchase', 2000, 2000, 'EUR'],
      ['CREDIT_50', 'paid', 'purchase', 5000, 5000, 'EUR'],
    ]);
    assert.ok(rows.every((r) => r.transactionId?.startsWith('pi_') && r.providerRef?.startsWith('cs_test_')));
    const ledger = await ledgerRows(t, user.id);
    assert.deepEqual(ledger.map((r) => r.reference), rows.map((r) => `stripe:${r.transactionId}`));
    const profile = await me(user.key);
    const numbers = profile.purchase_history.map((e: { invoice: { number: number } }) => e.invoice.number).reverse();
    assert.deepEqual(numbers, numbers.map((_: number, i: number) => numbers[0] + i), 'consecutive invoice numbers');
    assert.deepEqual(profile.purchase_history.map((e: { method: string; amount: number }) => [e.method, e.amount]).reverse(), [['stripe', 5], ['stripe', 10], ['stripe', 20], ['stripe', 50]]);
  });

  it('subscribes to Starter, credits each paid renewal, records a failed one, upgrades to Pro and unsubscribes at the period end', async () => {
    const user = await register(t);
    const { session } = await buyWithStripe(p, user, 'SUB_9');
    const sent = p.stripe.requests.findLast((r) => r.path === '/v1/checkout/sessions')!.body;
    assert.equal(sent.mode, 'subscription');
    assert.deepEqual(sent.line_items[0].price_data.recurring, { interval: 'day', interval_count: '30' });
    assert.equal(sent.subscription_data.metadata.offer_id, 'SUB_9');
    const subscriptionId = p.stripe.sessions.get(session.id)!.subscription;
    let profile = await me(user.key);
    assert.deepEqual([profile.plan, profile.credits, profile.has_discount, profile.subscription.auto_renew, profile.subscription.provider, profile.subscription.backtest_priority], ['SUB_9', 10, true, true, 'stripe', false]);
    const firstEnd = Date.parse(profile.subscription.renew_date);
    assert.equal(firstEnd, t.clock.now().getTime() + 30 * DAY, 'the end of the period Stripe billed');

    // Subscribers get 10 % more on packs, rounded up: 5 → 6, 75 → 83.
    await buyWithStripe(p, user, 'CREDIT_5');
    await buyWithStripe(p, user, 'CREDIT_50');
    assert.equal(await balance(t, user.id), 10 + 6 + 83);

    const renewal = await p.stripe.renew(subscriptionId);
    assert.equal(renewal.delivery.status, 200);
    profile = await me(user.key);
    assert.equal(profile.credits, 99 + 10);
    assert.equal(Date.parse(profile.subscription.renew_date), firstEnd + 30 * DAY);
    const renewalRow = await t.db.models.Payment.findOne({ where: { providerRef: renewal.invoice.id } });
    assert.deepEqual([renewalRow?.kind, renewalRow?.status, renewalRow?.amountReceivedCents], ['renewal', 'paid', 900]);

    const failedBefore = await failedPayments(t);
    const failed = await p.stripe.renew(subscriptionId, { fail: true });
    assert.equal(failed.delivery.status, 200);
    const failedRow = await t.db.models.Payment.findOne({ where: { providerRef: failed.invoice.id } });
    assert.deepEqual([failedRow?.status, failedRow?.failureKind, failedRow?.userId], ['failed', 'payment_failed', user.id]);
    assert.equal(await failedPayments(t), failedBefore + 1);
    assert.equal(await balance(t, user.id), 109, 'a failed renewal credits nothing');

    // Starter again while it renews: refused; Pro: an upgrade that ends the Starter subscription.
    const again = await t.request('POST', '/api/payment/stripe/session', { key: user.key, json: { offer_id: 'SUB_9', user_token: user.key } });
    assert.deepEqual([again.status, again.body.detail], [409, 'Tu es déjà abonné à Starter : l’abonnement se renouvelle tout seul.']);
    const pro = await buyWithStripe(p, user, 'SUB_25');
    profile = await me(user.key);
    assert.deepEqual([profile.plan, profile.credits, profile.subscription.backtest_priority], ['SUB_25', 109 + 30, true]);
    assert.equal(p.stripe.subscriptions.get(subscriptionId)!.status, 'canceled', 'the Starter subscription ends at once');
    const down = await t.request('POST', '/api/payment/stripe/session', { key: user.key, json: { offer_id: 'SUB_9', user_token: user.key } });
    assert.deepEqual([down.status, down.body.detail], [409, 'Tu es abonné à Pro : résilie-le, puis choisis Starter une fois la période terminée.']);
    await p.stripe.settle();
    profile = await me(user.key);
    assert.equal(profile.subscription.auto_renew, true, 'the old subscription’s deletion event leaves the new one renewing');

    // Unsubscribe: Stripe cancels at the period's end, the plan and the credits stay until then.
    const proSubscription = p.stripe.sessions.get(pro.session.id)!.subscription;
    const stop = await t.request('POST', '/api/profile/unsubscribe', { key: user.key });
    assert.equal(stop.status, 200, stop.text);
    assert.match(stop.body.message, /^Abonnement résilié : il reste actif jusqu’au \d\d\/\d\d\/\d{4}, sans renouvellement\.$/);
    assert.equal(p.stripe.subscriptions.get(proSubscription)!.cancel_at_period_end, true);
    await p.stripe.settle();
    profile = await me(user.key);
    assert.deepEqual([profile.plan, profile.credits, profile.subscription.auto_renew, profile.has_discount], ['SUB_25', 139, false, true]);
    const later = Date.parse(profile.subscription.renew_date) + 1000 - t.clock.now().getTime();
    t.clock.advance(later);
    // 30 days without a call end a session: sign in again.
    const login = await t.request('POST', '/api/login', { json: { identifier: user.username, password: user.password } });
    profile = await me(login.body.token);
    assert.deepEqual([profile.plan, profile.credits, profile.has_discount, profile.subscription.backtest_priority], ['free', 139, false, false]);
    t.clock.advance(-later);
  });

  it('a Starter checkout paid after Pro (two tabs): its credits, but Pro stays in force and keeps renewing; the Starter subscription ends', async () => {
    // Both sessions are opened while the account is free, so neither is refused; the buyer pays
    // Pro, then the Starter page left open. Before the fix the late Starter downgraded the plan,
    // dropped the priority and cancelled the Pro subscription just paid for.
    const user = await register(t);
    const open = async (offer: string) => {
      const session = await t.request('POST', '/api/payment/stripe/session', { key: user.key, json: { offer_id: offer, user_token: user.key } });
      assert.equal(session.status, 200, session.text);
      return session.body.id as string;
    };
    const starter = await open('SUB_9');
    const pro = await open('SUB_25');
    assert.ok((await p.stripe.complete(pro)).deliveries.every((d) => d.status === 200));
    const proSubscription = p.stripe.sessions.get(pro)!.subscription;
    const proEnd = Date.parse((await me(user.key)).subscription.renew_date);
    const late = await p.stripe.complete(starter);
    assert.ok(late.deliveries.every((d) => d.status === 200), JSON.stringify(late.deliveries.map((d) => d.body)));
    await p.stripe.settle();
    const profile = await me(user.key);
    assert.deepEqual(
      [profile.plan, profile.credits, profile.subscription.backtest_priority, profile.subscription.auto_renew, Date.parse(profile.subscription.renew_date)],
      ['SUB_25', 30 + 10, true, true, proEnd],
    );
    assert.equal(p.stripe.subscriptions.get(proSubscription)!.status, 'active', 'the Pro subscription goes on');
    assert.equal(p.stripe.subscriptions.get(p.stripe.sessions.get(starter)!.subscription)!.status, 'canceled', 'the Starter one is ended, so it bills no more');
    assert.equal((await paymentRows(t, user.id)).filter((r) => r.status === 'paid').length, 2);
  });

  it('deleting an account ends its Stripe subscription first (else Stripe charged a deleted account every period); Stripe down: 502, nothing deleted', async () => {
    const user = await register(t);
    const { session } = await buyWithStripe(p, user, 'SUB_9');
    const subscriptionId = p.stripe.sessions.get(session.id)!.subscription;

    // Stripe unreachable (a second app on the same database): refused, the account and the plan stay.
    const bare = await startTestApp(t.db, { payments: { stripe: new StripeCheckout({ ...STRIPE_KEYS, apiBase: 'http://127.0.0.1:9' }), paypal: null, crypto: null } });
    try {
      const down = await bare.request('POST', '/api/user/delete_account', { key: user.key, json: { current_password: user.password } });
      assert.deepEqual([down.status, down.body.detail], [502, 'Stripe ne répond pas : résiliation impossible pour l’instant. Réessaie dans un instant.']);
    } finally {
      await bare.close();
    }
    assert.equal((await me(user.key)).plan, 'SUB_9');
    assert.equal(p.stripe.subscriptions.get(subscriptionId)!.status, 'active');

    const deleted = await t.request('POST', '/api/user/delete_account', { key: user.key, json: { current_password: user.password } });
    assert.equal(deleted.status, 200, deleted.text);
    assert.equal(p.stripe.subscriptions.get(subscriptionId)!.status, 'canceled', 'no period is charged after the deletion');
    await p.stripe.settle();
    const row = await t.db.models.User.findByPk(user.id);
    assert.ok(row?.deletedAt);
    assert.equal(row?.subscriptionAutoRenew, false);

    // A subscription already stopped (cancelled at the period's end) needs no call to Stripe.
    const stopped = await register(t);
    const second = await buyWithStripe(p, stopped, 'SUB_9');
    assert.equal((await t.request('POST', '/api/profile/unsubscribe', { key: stopped.key })).status, 200);
    await p.stripe.settle();
    const calls = p.stripe.requests.length;
    assert.equal((await t.request('POST', '/api/user/delete_account', { key: stopped.key, json: { current_password: stopped.password } })).status, 200);
    assert.equal(p.stripe.requests.length, calls);
    assert.equal(p.stripe.subscriptions.get(p.stripe.sessions.get(second.session.id)!.subscription)!.cancel_at_period_end, true);
  });

  it('subscription updates out of order: an older copy delivered late does not turn the renewal back on', async () => {
    // Stripe does not order its events, and retries a failed delivery later: an update from
    // before the unsubscribe (cancel_at_period_end false) can arrive after it. It read as
    // 'renews again': the profile said so, and buying the plan again was refused as renewing.
    const user = await register(t);
    const { session } = await buyWithStripe(p, user, 'SUB_9');
    const subscriptionId = p.stripe.sessions.get(session.id)!.subscription;
    const older = { id: 'evt_old_update', object: 'event', type: 'customer.subscription.updated', data: { object: { ...p.stripe.subscriptions.get(subscriptionId)!, cancel_at_period_end: false } } };
    assert.equal((await t.request('POST', '/api/profile/unsubscribe', { key: user.key })).status, 200);
    await p.stripe.settle();
    assert.equal((await me(user.key)).subscription.auto_renew, false);
    const late = await p.stripe.send(older);
    assert.equal(late.status, 200, JSON.stringify(late.body));
    assert.equal((await me(user.key)).subscription.auto_renew, false, 'Stripe says it will not renew');
    // A subscription resumed on Stripe's side (the dashboard) does renew again.
    p.stripe.subscriptions.get(subscriptionId)!.cancel_at_period_end = false;
    assert.equal((await p.stripe.send({ ...older, id: 'evt_resumed' })).status, 200);
    assert.equal((await me(user.key)).subscription.auto_renew, true);
  });

  it('credits the first period once whichever of checkout.session.completed and invoice.paid comes first', async () => {
    const user = await register(t);
    const { deliveries, events } = await buyWithStripe(p, user, 'SUB_9', { invoiceFirst: true });
    assert.deepEqual(events.map((e) => e.type), ['invoice.paid', 'checkout.session.completed']);
    assert.deepEqual(deliveries.map((d) => d.status), [200, 200]);
    assert.equal(await balance(t, user.id), 10);
    assert.equal((await ledgerRows(t, user.id)).length, 1);
    assert.equal((await me(user.key)).plan, 'SUB_9');
  });

  it('each event replayed 10 times in a row and 10 times at once credits once', async () => {
    const user = await register(t);
    const pack = await buyWithStripe(p, user, 'CREDIT_20');
    const sub = await buyWithStripe(p, user, 'SUB_9');
    const renewal = await p.stripe.renew(p.stripe.sessions.get(sub.session.id)!.subscription);
    const events = [...pack.events, ...sub.events, renewal.event];
    const credited = await balance(t, user.id);
    assert.equal(credited, 25 + 10 + 10);
    const invoices = await t.db.models.Invoice.count({ where: { userId: user.id } });
    for (const event of events) {
      for (let i = 0; i < 10; i++) assert.equal((await p.stripe.send(event)).status, 200);
      const together = await Promise.all(Array.from({ length: 10 }, () => p.stripe.send(event)));
      assert.deepEqual(together.map((d) => d.status), Array(10).fill(200));
    }
    assert.equal(await balance(t, user.id), credited);
    assert.equal((await ledgerRows(t, user.id)).length, 3);
    assert.equal((await paymentRows(t, user.id)).filter((r) => r.status === 'paid').length, 3);
    assert.equal(await t.db.models.Invoice.count({ where: { userId: user.id } }), invoices);
  });

  it('refuses bad signatures (400), logs them and counts them as failed payments; nothing is credited', async () => {
    const user = await register(t);
    const session = await t.request('POST', '/api/payment/stripe/session', { key: user.key, json: { offer_id: 'CREDIT_50', user_token: user.key } });
    const stored = p.stripe.sessions.get(session.body.id)!;
    stored.payment_status = 'paid';
    const event = { id: 'evt_forged', object: 'event', type: 'checkout.session.completed', data: { object: { ...stored, payment_intent: 'pi_forged' } } };
    const payload = JSON.stringify(event);
    const stale = Math.floor(Date.now() / 1000) - 3600;
    const failedBefore = await failedPayments(t);
    const attempts = [
      { secret: 'whsec_not_ours' },
      { signatureHeader: '' },
      { signatureHeader: 'garbage' },
      { signatureHeader: p.stripe.signature(payload, undefined, stale) },
      // Signed for one body, sent with another.
      { signatureHeader: p.stripe.signature(payload), payload: payload.replace('"amount_total":5000', '"amount_total":1') },
    ];
    for (const attempt of attempts) {
      const answer = await p.stripe.send(event, attempt);
      assert.deepEqual([answer.status, answer.body.detail], [400, 'Signature invalide.']);
    }
    assert.equal(await failedPayments(t), failedBefore + attempts.length);
    const refused = await t.db.models.Payment.findAll({ where: { failureKind: 'bad_signature' }, order: [['id', 'DESC']], limit: attempts.length });
    assert.ok(refused.every((r) => r.status === 'refused' && r.userId === null));
    assert.ok(t.logs.filter((l) => l.startsWith('payments: refused stripe callback')).length >= attempts.length);
    assert.equal(await balance(t, user.id), 0);
  });

  it('refuses an amount or a currency that is not the offer’s, recorded and logged; balance unchanged', async () => {
    const user = await register(t);
    const short = await buyWithStripe(p, user, 'CREDIT_10', { amountTotal: 100 });
    assert.deepEqual([short.deliveries[0].status, short.deliveries[0].body.detail], [400, 'Montant reçu (1,00 €) différent du prix de l’offre (10,00 €) : paiement refusé.']);
    const dollars = await buyWithStripe(p, user, 'CREDIT_10', { currency: 'usd' });
    assert.deepEqual([dollars.deliveries[0].status, dollars.deliveries[0].body.detail], [400, 'Devise reçue (USD) différente de celle de l’offre (EUR) : paiement refusé.']);
    const rows = await paymentRows(t, user.id);
    assert.deepEqual(rows.map((r) => [r.status, r.failureKind, r.amountReceivedCents, r.currencyReceived]), [
      ['refused', 'amount_mismatch', 100, 'eur'],
      ['refused', 'currency_mismatch', 1000, 'usd'],
    ]);
    // A replay of the refused event is refused again, still without credits.
    assert.equal((await p.stripe.send(short.events[0])).status, 400);
    assert.equal(await balance(t, user.id), 0);
    assert.ok(t.logs.some((l) => l.includes('Montant reçu (1,00 €)')));
  });

  it('acknowledges events that are not bt payments, records expired sessions as cancelled', async () => {
    const foreign = await p.stripe.send({ id: 'evt_other', object: 'event', type: 'checkout.session.completed', data: { object: { id: 'cs_other', object: 'checkout.session', metadata: {}, payment_status: 'paid' } } });
    assert.deepEqual([foreign.status, foreign.body.ignored], [200, 'not a bt payment']);
    const user = await register(t);
    const session = await t.request('POST', '/api/payment/stripe/session', { key: user.key, json: { offer_id: 'CREDIT_5' } });
    assert.equal(session.status, 200, 'user_token is optional: the key identifies the buyer');
    assert.equal((await p.stripe.expire(session.body.id)).status, 200);
    const [row] = await paymentRows(t, user.id);
    assert.deepEqual([row.status, row.failureKind], ['cancelled', 'expired']);
    const status = await t.request('GET', `/api/payment/status?payment=stripe&session_id=${session.body.id}`, { key: user.key });
    assert.deepEqual([status.status, status.body.status, status.body.message], [200, 'cancelled', 'Paiement annulé.']);
  });
});
