import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CREDIT_COSTS, OFFERS, SIGNUP_CREDITS, creditsFor, getOffer, isMethodAvailable, planAfter, priceFor,
} from '@bt/core/catalogue';

test('the four packs and two subscriptions carry the spec prices and credits', () => {
  const table = OFFERS.map((o) => [o.id, o.priceCents / 100, o.credits]);
  assert.deepEqual(table, [
    ['CREDIT_5', 5, 5], ['CREDIT_10', 10, 12], ['CREDIT_20', 20, 25], ['CREDIT_50', 50, 75],
    ['SUB_9', 9, 10], ['SUB_25', 25, 30],
  ]);
  assert.equal(getOffer('CREDIT_50').bonus, true);
  assert.equal(getOffer('SUB_25').priority, true);
  assert.equal(getOffer('SUB_9').periodDays, 30);
});

test('subscribers get 10 % more credits on packs, rounded up; free users get the pack', () => {
  assert.deepEqual(['CREDIT_5', 'CREDIT_10', 'CREDIT_20', 'CREDIT_50'].map((id) => creditsFor(id, { plan: 'free' })), [5, 12, 25, 75]);
  assert.deepEqual(['CREDIT_5', 'CREDIT_10', 'CREDIT_20', 'CREDIT_50'].map((id) => creditsFor(id, { plan: 'SUB_9' })), [6, 14, 28, 83]);
  assert.equal(creditsFor('CREDIT_20', { plan: 'SUB_25' }), 28);
  assert.equal(creditsFor('SUB_25', { plan: 'SUB_9' }), 30, 'no bonus on a subscription');
});

test('crypto needs 10.01 EUR except CREDIT_10, charged 10.50 with +1 credit (+2 for subscribers)', () => {
  assert.equal(isMethodAvailable('CREDIT_5', 'crypto'), false);
  assert.equal(isMethodAvailable('SUB_9', 'crypto'), false);
  assert.equal(isMethodAvailable('CREDIT_20', 'crypto'), true);
  assert.equal(isMethodAvailable('CREDIT_5', 'stripe'), true);
  assert.equal(priceFor('CREDIT_10', { method: 'crypto' }), 1050);
  assert.equal(priceFor('CREDIT_10', { method: 'paypal' }), 1000);
  assert.equal(creditsFor('CREDIT_10', { method: 'crypto' }), 13);
  assert.equal(creditsFor('CREDIT_10', { method: 'crypto', plan: 'SUB_25' }), 16);
  assert.throws(() => priceFor('CREDIT_5', { method: 'crypto' }), /invalid method: crypto is not available for CREDIT_5/);
  assert.throws(() => creditsFor('SUB_9', { method: 'crypto' }), /invalid method/);
});

test('costs, sign-up credits, plans and unknown offers', () => {
  assert.deepEqual(CREDIT_COSTS, { backtest: 2, csvDownload: 1, extraction: 1 });
  assert.equal(SIGNUP_CREDITS, 2);
  assert.equal(planAfter('SUB_25', 'SUB_9'), 'SUB_25');
  assert.equal(planAfter('CREDIT_5', 'SUB_9'), 'SUB_9');
  assert.throws(() => getOffer('CREDIT_7'), /invalid offer: CREDIT_7/);
});
