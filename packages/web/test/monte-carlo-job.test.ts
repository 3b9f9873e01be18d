import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { monteCarlo } from '@bt/core/montecarlo';
import { answerMonteCarlo, PANEL_RUNS, PANEL_SEED } from '../src/features/montecarlo/job.js';

const sequence = Float64Array.from({ length: 257 }, (_, i) => (i % 3 === 0 ? -1 : i % 5 === 0 ? 2 : 0.5 - (i % 7) / 10));

describe('the Monte Carlo panel’s worker job', () => {
  it('answers with core’s monteCarlo for the panel’s runs and seed, under the request’s id', () => {
    for (const method of ['bootstrap', 'shuffle'] as const) {
      const answer = answerMonteCarlo({ id: 7, sequence, method, riskPerTrade: 0.02 });
      assert.equal(answer.id, 7);
      assert.ok('result' in answer);
      assert.deepEqual(answer.result, monteCarlo(sequence, { method, riskPerTrade: 0.02, runs: PANEL_RUNS, seed: PANEL_SEED }));
      assert.equal(answer.result.runs, 10_000);
      assert.equal(answer.result.riskOfRuin.riskPerTrade, 0.02);
    }
  });

  it('the answer survives the structured clone a worker’s message goes through', () => {
    const answer = answerMonteCarlo({ id: 1, sequence, method: 'bootstrap', riskPerTrade: 0.01 });
    assert.deepEqual(structuredClone(answer), answer);
  });

  it('answers an error message, never throws: an empty sequence, a non-finite R', () => {
    const empty = answerMonteCarlo({ id: 2, sequence: new Float64Array(0), method: 'bootstrap', riskPerTrade: 0.01 });
    assert.deepEqual(empty, { id: 2, error: 'invalid R sequence: no resolved trade to draw from' });
    const nan = answerMonteCarlo({ id: 3, sequence: Float64Array.of(1, NaN), method: 'shuffle', riskPerTrade: 0.01 });
    assert.equal(nan.id, 3);
    assert.ok('error' in nan && /NaN at trade 2/.test(nan.error), JSON.stringify(nan));
  });
});
