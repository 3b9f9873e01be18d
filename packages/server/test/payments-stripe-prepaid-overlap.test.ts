import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { register } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { buyWithCrypto, buyWithPayPal, buyWithStripe, paymentRows, usePaymentApp } from './support/payments.js';
import { balance, ledgerRows } from './support/work.js';

// A Stripe subscription and a prepaid (PayPal, crypto) period of the same plan (docs/payments.md
// "Subscriptions"). Before the fix, a Stripe subscription bought while a PayPal or crypto period
// ran set the renewal date to Stripe's first period end: the prepaid days were lost.

const p = usePaymentApp();
const { t } = p;
const DAY = 86_400_000;

const me = async (key: string) => (await t.request('GET', '/api/me', { key })).body;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10).split('-').reverse().join('/');
const stripeSession = (key: string, offerId: string) => t.request('POST', '/api/payment/stripe/session', { key, json: { offer_id: offerId, user_token: key } });
const paidUntil = (label: string, until: string) =>
  `Ton abonnement ${label} est déjà payé jusqu’au ${until} : un abonnement par carte commencerait aujourd’hui et les jours déjà payés seraient perdus. Souscris-le par carte à partir du ${until}, ou prolonge-le de 30 jours par un paiement sans renouvellement automatique.`;
const checkoutsCreated = () => p.stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').length;

describe(`a Stripe subscription over a prepaid period (${TEST_DIALECT})`, () => {
  it('PayPal Starter paid for two periods: Stripe Starter is refused (409, the date it ends) before any Checkout, nothing changes', async () => {
    const user = await register(t);
    await buyWithPayPal(p, user, 'SUB_9');
    await buyWithPayPal(p, user, 'SUB_9');
    const before = await me(user.key);
    const end = Date.parse(before.subscription.renew_date);
    assert.equal(end, t.clock.now().getTime() + 60 * DAY);
    const created = checkoutsCreated();
    const res = await stripeSession(user.key, 'SUB_9');
    assert.deepEqual([res.status, res.body.detail], [409, paidUntil('Starter', day(end))]);
    assert.equal(checkoutsCreated(), created, 'no Checkout session asked of Stripe');
    const after = await me(user.key);
    assert.deepEqual([after.plan, after.credits, after.subscription.renew_date, after.subscription.provider, after.subscription.auto_renew], ['SUB_9', 20, before.subscription.renew_date, 'paypal', false]);
    assert.deepEqual((await paymentRows(t, user.id)).map((r) => [r.provider, r.status]), [['paypal', 'paid'], ['paypal', 'paid']]);
  });

  it('crypto Pro: Stripe Pro refused with its end date, Stripe Starter refused as under Pro; once the period is over Stripe Pro is sold', async () => {
    const user = await register(t);
    await buyWithCrypto(p, user, 'SUB_25');
    const end = Date.parse((await me(user.key)).subscription.renew_date);
    const pro = await stripeSession(user.key, 'SUB_25');
    assert.deepEqual([pro.status, pro.body.detail], [409, paidUntil('Pro', day(end))]);
    const starter = await stripeSession(user.key, 'SUB_9');
    assert.deepEqual([starter.status, starter.body.detail], [409, 'Tu es abonné à Pro : résilie-le, puis choisis Starter une fois la période terminée.']);
    t.clock.advance(end - t.clock.now().getTime() + 1000);
    const { session } = await buyWithStripe(p, await signIn(user), 'SUB_25');
    assert.ok(session.id);
  });

  it('a Stripe subscription stopped at its period end: subscribing again by card is refused until that date (Stripe would charge the same days twice)', async () => {
    const user = await register(t);
    await buyWithStripe(p, user, 'SUB_9');
    assert.equal((await t.request('POST', '/api/profile/unsubscribe', { key: user.key })).status, 200);
    await p.stripe.settle();
    const end = Date.parse((await me(user.key)).subscription.renew_date);
    const res = await stripeSession(user.key, 'SUB_9');
    assert.deepEqual([res.status, res.body.detail], [409, paidUntil('Starter', day(end))]);
    // PayPal adds its 30 days after the Stripe period: nothing paid twice, nothing lost.
    await buyWithPayPal(p, user, 'SUB_9');
    assert.equal(Date.parse((await me(user.key)).subscription.renew_date), end + 30 * DAY);
  });

  it('the reverse: PayPal or crypto of the plan a Stripe subscription renews is refused (409) before any order', async () => {
    const user = await register(t);
    await buyWithStripe(p, user, 'SUB_25');
    const paypal = await t.request('POST', '/api/payment/paypal/create-order', { key: user.key, json: { offer_id: 'SUB_25', user_token: user.key } });
    assert.deepEqual([paypal.status, paypal.body.detail], [409, 'Tu es déjà abonné à Pro : l’abonnement se renouvelle tout seul.']);
    const crypto = await t.request('POST', '/api/payment/crypto/create-order', { key: user.key, json: { offer_id: 'SUB_25', user_token: user.key } });
    assert.deepEqual([crypto.status, crypto.body.detail], [409, 'Tu es déjà abonné à Pro : l’abonnement se renouvelle tout seul.']);
    assert.deepEqual((await paymentRows(t, user.id)).map((r) => [r.provider, r.status]), [['stripe', 'paid']]);
  });

  it('an upgrade stays possible: PayPal Starter, then Stripe Pro starts now (no proration, as documented)', async () => {
    const user = await register(t);
    await buyWithPayPal(p, user, 'SUB_9');
    await buyWithStripe(p, user, 'SUB_25');
    const profile = await me(user.key);
    assert.deepEqual([profile.plan, profile.credits, profile.subscription.provider, profile.subscription.auto_renew], ['SUB_25', 40, 'stripe', true]);
  });

  it('a Checkout opened before a PayPal period of the same plan and paid after it keeps the later date and is logged for a hand settlement', async () => {
    const user = await register(t);
    const session = await stripeSession(user.key, 'SUB_9');
    assert.equal(session.status, 200);
    await buyWithPayPal(p, user, 'SUB_9');
    await buyWithPayPal(p, user, 'SUB_9');
    const prepaidEnd = (await me(user.key)).subscription.renew_date;
    assert.equal(Date.parse(prepaidEnd), t.clock.now().getTime() + 60 * DAY);
    await p.stripe.complete(session.body.id);
    const profile = await me(user.key);
    assert.deepEqual([profile.plan, profile.credits, profile.subscription.renew_date, profile.subscription.provider], ['SUB_9', 30, prepaidEnd, 'stripe'], 'the later date stays');
    assert.ok(t.logs.some((l) => l.includes(`user ${user.id} started SUB_9 while it was paid until ${prepaidEnd}`) && l.includes('by hand')), t.logs.slice(-3).join('\n'));
  });
});

describe(`a dispute won on a deleted account (${TEST_DIALECT})`, () => {
  it('grants nothing and the log says so, not "given back"', async () => {
    const user = await register(t);
    const { session } = await buyWithStripe(p, user, 'CREDIT_10');
    const intent = p.stripe.sessions.get(session.id)!.payment_intent as string;
    assert.equal((await p.stripe.dispute(intent, 'needs_response')).delivery!.status, 200);
    assert.equal(await balance(t, user.id), 0);
    assert.equal((await t.request('POST', '/api/user/delete_account', { key: user.key, json: { current_password: user.password } })).status, 200);
    const won = await p.stripe.dispute(intent, 'won');
    assert.equal(won.delivery!.status, 200);
    assert.equal((await ledgerRows(t, user.id)).filter((r) => r.reason === 'dispute_won').length, 0);
    const line = t.logs.findLast((l) => l.includes(`dispute ${won.dispute.id} won`));
    assert.ok(line, t.logs.slice(-3).join('\n'));
    assert.doesNotMatch(line, /given back/);
    assert.match(line, /12 credits owed back but the account is deleted: nothing granted/);
  });
});

async function signIn(user: { username: string; password: string; id: number }) {
  // 30 days without a call end a session: sign in again.
  const login = await t.request('POST', '/api/login', { json: { identifier: user.username, password: user.password } });
  assert.equal(login.status, 200, login.text);
  return { ...user, key: login.body.token as string };
}
