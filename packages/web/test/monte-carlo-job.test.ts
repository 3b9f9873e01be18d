import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { monteCarlo } from '@bt/core/montecarlo';
import { answerJob, answerMonteCarlo, mergeAnswers, PANEL_DRAWS_PER_WORKER, PANEL_MAX_WORKERS, PANEL_RUNS, PANEL_SEED, panelWorkers, splitMonteCarlo, type MonteCarloJob, type MonteCarloRequest } from '../src/features/montecarlo/job.js';

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

/** Each job through a structured clone to its worker and back, as postMessage does. */
const runJobs = (jobs: readonly MonteCarloJob[]) => jobs.map((job) => structuredClone(answerJob(structuredClone(job))));

describe('the Monte Carlo panel’s split over several workers', () => {
  it('as many workers as the cores, at most 4, one per 7 million draws; a shuffle in one', () => {
    const long = { sequence: new Float64Array(8000), method: 'bootstrap' as const };
    assert.equal(panelWorkers(long, 8), PANEL_MAX_WORKERS);
    assert.equal(panelWorkers(long, 2), 2);
    assert.equal(panelWorkers(long, 1), 1);
    for (const odd of [undefined, 0, -3, 2.5, NaN]) assert.equal(panelWorkers(long, odd), 1, String(odd));
    assert.equal(panelWorkers({ ...long, method: 'shuffle' }, 8), 1);
    const short = (trades: number) => panelWorkers({ sequence: new Float64Array(trades), method: 'bootstrap' }, 16);
    assert.equal(short(1_399), 1, 'under 14 million draws: one worker');
    assert.equal(short(1_400), 2, 'from 14 million draws: two workers');
    assert.equal(short(PANEL_DRAWS_PER_WORKER / PANEL_RUNS), 1);
    assert.equal(short((2 * PANEL_DRAWS_PER_WORKER) / PANEL_RUNS), 2);
    assert.equal(short((3 * PANEL_DRAWS_PER_WORKER) / PANEL_RUNS + 1), 3);
  });

  it('the split jobs’ answers merge into core’s monteCarlo result to the bit, for 1 to 5 workers, in any order', () => {
    const sequences = [sequence, Float64Array.of(-1), Float64Array.of(1, -1, -150, 2)];
    for (const seq of sequences) {
      const request: MonteCarloRequest = { id: 4, sequence: seq, method: 'bootstrap', riskPerTrade: 0.01 };
      const want = monteCarlo(seq, { method: 'bootstrap', riskPerTrade: 0.01, runs: PANEL_RUNS, seed: PANEL_SEED });
      for (let workers = 1; workers <= 5; workers++) {
        const jobs = splitMonteCarlo(request, workers);
        assert.equal(jobs.length, workers);
        for (const job of jobs) assert.notEqual(job.sequence.buffer, seq.buffer, 'each job its own copy: the transfer detaches it');
        const answers = runJobs(jobs);
        assert.deepStrictEqual(mergeAnswers(request, answers), { id: 4, result: want }, `${seq.length} trades on ${workers} workers`);
        assert.deepStrictEqual(mergeAnswers(request, [...answers].reverse()), { id: 4, result: want });
      }
    }
  });

  it('a shuffle stays one whole job; a lone whole answer passes through', () => {
    const request: MonteCarloRequest = { id: 5, sequence, method: 'shuffle', riskPerTrade: 0.01 };
    const jobs = splitMonteCarlo(request, 4);
    assert.equal(jobs.length, 1);
    assert.equal(jobs[0].range, null);
    assert.deepStrictEqual(mergeAnswers(request, runJobs(jobs)), answerMonteCarlo(request));
  });

  it('an error in any job is the answer; missing or mixed answers are an error, not a wrong result', () => {
    const request: MonteCarloRequest = { id: 6, sequence: Float64Array.of(1, NaN, 2), method: 'bootstrap', riskPerTrade: 0.01 };
    const answers = runJobs(splitMonteCarlo(request, 3));
    assert.ok(answers.every((a) => 'error' in a));
    const merged = mergeAnswers(request, answers);
    assert.equal(merged.id, 6);
    assert.ok('error' in merged && /NaN at trade 2/.test(merged.error), JSON.stringify(merged));
    const good: MonteCarloRequest = { id: 7, sequence, method: 'bootstrap', riskPerTrade: 0.01 };
    const parts = runJobs(splitMonteCarlo(good, 3));
    const missing = mergeAnswers(good, parts.slice(1));
    assert.ok('error' in missing && /where run 0 of 10000/.test(missing.error), JSON.stringify(missing));
    const mixed = mergeAnswers(good, [...parts, answerMonteCarlo(good)]);
    assert.ok('error' in mixed && /whole result among ranges/.test(mixed.error), JSON.stringify(mixed));
  });
});
