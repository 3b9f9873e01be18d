import assert from 'node:assert/strict';
import { test } from 'node:test';
import { monteCarlo } from '@bt/core/montecarlo';

const R = [1, -1, 2, -1, 0.5];

test('percentiles: at most 1,000, and a refusal shows at most 80 characters of them', () => {
  const many = Array.from({ length: 1_000_001 }, (_, i) => 1 + (i % 99));
  assert.throws(() => monteCarlo(R, { runs: 10, percentiles: many }), { message: 'invalid percentiles: 1,000,001 values (at most 1,000)' });
  const bad = [...Array.from({ length: 500 }, () => 50), 101];
  assert.throws(() => monteCarlo(R, { runs: 10, percentiles: bad }), (e: Error) => e.message.length < 200 && /^invalid percentiles: \[50,50,.*\.\.\. \(expected numbers in \(0, 100\]/.test(e.message));
  const thousand = Array.from({ length: 1000 }, (_, i) => (i + 1) / 10);
  assert.equal(monteCarlo(R, { runs: 10, percentiles: thousand }).finalR.percentiles.length, 1000);
});

test('the other options: runs 0 or 1e9, fractional or negative seeds, risk at or past 100 %, NaN or Infinity in the R sequence', () => {
  for (const [options, message] of [
    [{ runs: 0 }, /^invalid runs: 0/],
    [{ runs: 1e9 }, /^invalid runs: 1000000000/],
    [{ runs: 1.5 }, /^invalid runs: 1.5/],
    [{ seed: 1.5 }, /^invalid seed: 1.5/],
    [{ seed: -1 }, /^invalid seed: -1/],
    [{ seed: 2 ** 32 }, /^invalid seed: 4294967296/],
    [{ riskPerTrade: 1 }, /^invalid riskPerTrade: 1 /],
    [{ riskPerTrade: -0.01 }, /^invalid riskPerTrade: -0.01/],
    [{ riskPerTrade: Number.NaN }, /^invalid riskPerTrade: NaN/],
    [{ ruinLevel: 1.01 }, /^invalid ruinLevel: 1.01/],
    [{ bins: 0 }, /^invalid bins: 0/],
  ] as const) {
    assert.throws(() => monteCarlo(R, options), (e: Error) => message.test(e.message), JSON.stringify(options));
  }
  assert.throws(() => monteCarlo([1, Number.NaN]), { message: 'invalid R sequence: NaN at trade 2 (expected finite R multiples)' });
  assert.throws(() => monteCarlo([Infinity]), { message: 'invalid R sequence: Infinity at trade 1 (expected finite R multiples)' });
  assert.throws(() => monteCarlo([]), { message: 'invalid R sequence: no resolved trade to draw from' });
});
