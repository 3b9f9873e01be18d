import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { register } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { buyWithStripe, paymentRows, usePaymentApp } from './support/payments.js';
import { balance, ledgerRows } from './support/work.js';

// Refund and dispute notices whose ledger reference is one already used for another amount
// (docs/payments.md "Refunds and disputes", "Once, in any order").

const p = usePaymentApp();
const { t } = p;

async function paidPack(offer: string) {
  const user = await register(t);
  const { session, deliveries } = await buyWithStripe(p, user, offer);
  assert.deepEqual(deliveries.map((d) => d.status), [200]);
  const intent = p.stripe.sessions.get(session.id)!.payment_intent as string;
  return { user, intent };
}

const reversals = async (userId: number) =>
  (await ledgerRows(t, userId)).filter((r) => ['payment_refund', 'payment_dispute', 'dispute_won'].includes(r.reason)).map((r) => [r.kind, r.reason, r.amount]);

describe(`dispute amounts that change while open (${TEST_DIALECT})`, () => {
  it('a dispute raised while open takes the difference, and won gives back exactly what was taken', async () => {
    const { user, intent } = await paidPack('CREDIT_20'); // 20 €, 25 credits
    const first = await p.stripe.dispute(intent, 'needs_response', { send: false });
    first.event.data.object.amount = 1000; // 10 € of 20: 13 credits (rounded up)
    assert.equal((await p.stripe.send(first.event)).status, 200);
    assert.equal(await balance(t, user.id), 12);
    const raised = await p.stripe.dispute(intent, 'needs_response', { send: false });
    raised.event.data.object.amount = 2000; // the whole charge now: 12 more
    const answer = await p.stripe.send(raised.event);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(await balance(t, user.id), 0);
    let [row] = await paymentRows(t, user.id);
    assert.deepEqual([row.creditsReversed, row.creditsShortfall], [25, 0]);
    // Replays of either change nothing more.
    assert.equal((await p.stripe.send(raised.event)).status, 200);
    assert.equal(await balance(t, user.id), 0);
    const won = await p.stripe.dispute(intent, 'won');
    assert.equal(won.delivery!.status, 200);
    assert.equal(await balance(t, user.id), 25, 'won gives back the 25 taken, no more');
    [row] = await paymentRows(t, user.id);
    assert.deepEqual([row.creditsReversed, row.creditsShortfall], [0, 0]);
    assert.deepEqual(await reversals(user.id), [['spend', 'payment_dispute', -13], ['spend', 'payment_dispute', -12], ['grant', 'dispute_won', 25]]);
  });
});
