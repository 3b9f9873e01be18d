import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { register } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { usePaymentApp } from './support/payments.js';

const p = usePaymentApp();
const { t } = p;

describe(`payments through Stripe (${TEST_DIALECT})`, () => {
  it('smoke', async () => {
    const user = await register(t);
    const res = await t.request('POST', '/api/payment/stripe/session', { key: user.key, json: { offer_id: 'CREDIT_10', user_token: user.key } });
    assert.equal(res.status, 200, res.text);
    const done = await p.stripe.complete(res.body.id);
    console.log(done.deliveries, t.logs);
    const me = await t.request('GET', '/api/me', { key: user.key });
    console.log(me.body.credits, me.body.purchase_history);
  });
});
