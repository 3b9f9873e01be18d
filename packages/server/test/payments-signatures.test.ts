import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { register } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { STRIPE_KEYS, usePaymentApp } from './support/payments.js';
import { deliver } from './support/provider-http.js';
import { balance } from './support/work.js';

// Stripe-Signature as Stripe sends it in its less common forms (docs/payments.md "Webhooks and
// IPN"): what must verify does, what must not does not, and nothing is credited twice.

const p = usePaymentApp();
const { t } = p;

const v1 = (secret: string, timestamp: number, payload: string) => createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');

async function paidSessionEvent() {
  const user = await register(t);
  const session = await t.request('POST', '/api/payment/stripe/session', { key: user.key, json: { offer_id: 'CREDIT_10' } });
  assert.equal(session.status, 200, session.text);
  const webhook = `${t.url}/api/payment/stripe/webhook`;
  p.stripe.setWebhook(`${t.url}/api/payment/stripe/nowhere`);
  const { events } = await p.stripe.complete(session.body.id);
  p.stripe.setWebhook(webhook);
  return { user, event: events[0], webhook };
}

describe(`Stripe-Signature forms (${TEST_DIALECT})`, () => {
  it('several v1 signatures (a secret being rolled) verify when one is ours; the header name in any letter case', async () => {
    const { user, event, webhook } = await paidSessionEvent();
    const payload = JSON.stringify(event);
    const now = Math.floor(Date.now() / 1000);
    const header = `t=${now},v1=${v1('whsec_old_secret', now, payload)},v1=${v1(STRIPE_KEYS.webhookSecret, now, payload)},v0=deadbeef`;
    const answer = await deliver(webhook, payload, { 'STRIPE-SIGNATURE': header });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(await balance(t, user.id), 12);
    assert.equal((await deliver(webhook, payload, { 'Stripe-Signature': header })).status, 200);
    assert.equal(await balance(t, user.id), 12);
  });

  it('refused: a timestamp past the tolerance even with a good v1, a v1 of another timestamp, the body re-encoded after signing', async () => {
    const { user, event, webhook } = await paidSessionEvent();
    const payload = JSON.stringify(event);
    const now = Math.floor(Date.now() / 1000);
    const old = now - 301;
    const attempts: [string, string][] = [
      [payload, `t=${old},v1=${v1(STRIPE_KEYS.webhookSecret, old, payload)}`],
      [payload, `t=${now},v1=${v1(STRIPE_KEYS.webhookSecret, old, payload)}`],
      [JSON.stringify(event, null, 2), `t=${now},v1=${v1(STRIPE_KEYS.webhookSecret, now, payload)}`],
      [payload.replace(/é/g, '\\u00e9').replace('"object"', '"obj\\u0065ct"'), `t=${now},v1=${v1(STRIPE_KEYS.webhookSecret, now, payload)}`],
    ];
    for (const [body, header] of attempts) {
      const answer = await deliver(webhook, body, { 'stripe-signature': header });
      assert.deepEqual([answer.status, (answer.body as { detail?: string }).detail], [400, 'Signature invalide.'], header);
    }
    assert.equal(await balance(t, user.id), 0);
  });
});
