import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CREDIT_FIELDS, creditBalance, creditsBadgeText } from '../src/shell/credits.js';

describe('credits badge (docs/product.md §1.3)', () => {
  it('reads the first usable numeric field in the spec order', () => {
    assert.deepEqual([...CREDIT_FIELDS], ['credits', 'credit', 'credit_balance', 'remaining_credits', 'creditsLeft', 'balance_credits']);
    assert.equal(creditBalance({ credits: 5, credit: 9 }), 5);
    assert.equal(creditBalance({ credits: null, credit: 'abc', credit_balance: '7' }), 7);
    assert.equal(creditBalance({ credits: Number.NaN, remaining_credits: 0 }), 0);
    assert.equal(creditBalance({ creditsLeft: ' 12 ', balance_credits: 3 }), 12);
    assert.equal(creditBalance({ balance_credits: '2,5' }), 2.5);
  });

  it('shows an em dash when no field is usable', () => {
    assert.equal(creditsBadgeText(null), '—');
    assert.equal(creditsBadgeText({ credits: '' }), '—');
    assert.equal(creditsBadgeText({ credits: '12 crédits' }), '—');
    assert.equal(creditsBadgeText({ credits: Infinity }), '—');
    assert.equal(creditsBadgeText({ credits: 8 }), '8');
    assert.equal(creditsBadgeText({ credits: 1234 }), '1\u202f234');
  });
});
