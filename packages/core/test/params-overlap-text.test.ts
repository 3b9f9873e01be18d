import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalizeParams, overlapPercentToFraction, parseOverlapRatio } from '@bt/core/params';

test('a percent text with a long run of spaces inside is refused in linear time (the % strip was quadratic)', { timeout: 30_000 }, () => {
  // 200,000 spaces: about 100 s with replace(/\s*%$/, ''), which tried each space as a start (500,000: minutes).
  const hostile = `1${' '.repeat(500_000)}1%`;
  const started = Date.now();
  assert.throws(() => parseOverlapRatio(hostile), /invalid min_overlap_ratio: "1 {50,}\.\.\./);
  assert.throws(() => overlapPercentToFraction(hostile), /invalid min_overlap_ratio/);
  assert.throws(() => normalizeParams({ min_overlap_ratio: hostile }, { strategy: 'fvg_pullback_multi' }), /invalid min_overlap_ratio/);
  // A hang guard, not a speed target: quadratic, that is minutes; linear, milliseconds. 10 s is
  // far from both, even on a machine loaded twenty times over.
  assert.ok(Date.now() - started < 10_000, `${Date.now() - started} ms`);
});

test('the percent forms people write still read the same', () => {
  assert.equal(parseOverlapRatio('25%'), 0.25);
  assert.equal(parseOverlapRatio('  25 \t %  '), 0.25);
  assert.equal(parseOverlapRatio('12,5 %'), 0.125);
  assert.equal(overlapPercentToFraction('40 %'), 0.4);
  assert.equal(overlapPercentToFraction(' 40 '), 0.4);
  assert.equal(parseOverlapRatio('0.3'), 0.3);
  assert.throws(() => parseOverlapRatio('%'), /invalid min_overlap_ratio/);
  assert.throws(() => parseOverlapRatio('25%%'), /invalid min_overlap_ratio/);
});
