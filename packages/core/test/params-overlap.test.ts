import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  OVERLAP_PERCENT_PRESETS, normalizeParams, overlapFractionToPercent, overlapPercentToFraction, parseOverlapRatio,
} from '@bt/core/params';

test("the form's percent becomes the engine's fraction; empty means entry on touch", () => {
  assert.deepEqual(OVERLAP_PERCENT_PRESETS.map((p) => overlapPercentToFraction(p)), [0.1, 0.25, 0.5]);
  assert.equal(overlapPercentToFraction(0.1), 0.001);
  assert.equal(overlapPercentToFraction(100), 1);
  assert.equal(overlapPercentToFraction(7), 0.07);
  assert.equal(overlapPercentToFraction('12,5'), 0.125);
  assert.equal(overlapPercentToFraction('33 %'), 0.33);
  for (const empty of ['', '  ', null, undefined]) assert.equal(overlapPercentToFraction(empty), undefined);
  for (const bad of [0, 0.05, 100.5, -10, 'abc', '50 pips'] as const) {
    assert.throws(() => overlapPercentToFraction(bad), { message: `invalid min_overlap_ratio: ${JSON.stringify(bad)} (expected a percent from 0.1 to 100)` });
  }
  assert.equal(overlapFractionToPercent(0.07), 7);
  assert.equal(overlapFractionToPercent(undefined), undefined);
});

test('the parameter takes a fraction in (0, 1] or a percent text; anything else is an error', () => {
  assert.equal(parseOverlapRatio(0.25), 0.25);
  assert.equal(parseOverlapRatio(1), 1);
  assert.equal(parseOverlapRatio('0,3'), 0.3);
  assert.equal(parseOverlapRatio('25%'), 0.25);
  assert.equal(parseOverlapRatio(' 0.1 % '), 0.001);
  for (const empty of ['', null, undefined]) assert.equal(parseOverlapRatio(empty), undefined);
  const expected = 'a fraction in (0, 1] such as 0.25, or a percent such as "25%"; leave it empty for an entry on touch';
  for (const bad of [0, 25, '25', -0.2, 1.01, true, 'touch']) {
    assert.throws(() => parseOverlapRatio(bad), { message: `invalid min_overlap_ratio: ${JSON.stringify(bad)} (expected ${expected})` });
  }
  assert.throws(() => parseOverlapRatio('0%'), { message: 'invalid min_overlap_ratio: "0%" (expected a percent from 0.1 to 100)' });
  assert.throws(() => parseOverlapRatio('250%'), { message: 'invalid min_overlap_ratio: "250%" (expected a percent from 0.1 to 100)' });
});

test('through normalizeParams: empty is touch (left unset), a percent text is converted', () => {
  const strategy = 'fvg_pullback_multi_rsi';
  assert.equal(normalizeParams({ min_overlap_ratio: '' }, { strategy }).params.min_overlap_ratio, undefined);
  assert.equal(normalizeParams({ min_overlap_ratio: null }, { strategy }).params.min_overlap_ratio, undefined);
  assert.equal(normalizeParams({ min_overlap_ratio: '50%' }, { strategy }).params.min_overlap_ratio, 0.5);
  assert.equal(normalizeParams({ min_overlap_ratio: 0.01 }, { strategy }).params.min_overlap_ratio, 0.01);
  assert.throws(() => normalizeParams({ min_overlap_ratio: 50 }, { strategy }), /^ParamError: invalid min_overlap_ratio: 50 \(expected a fraction in \(0, 1\]/);
});
