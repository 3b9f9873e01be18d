// The engine threads' two lanes (src/jobs/lanes.ts, docs/server.md "Engine threads"): what a
// person waits on that is not a run (a result's workbook, an invoice's PDF, an extraction's CSV,
// a personal strategy's sandbox request and answer) goes before the backtests already waiting.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { headCandles } from '@bt/core';
import { readCandlesCsv } from '@bt/core/candles';
import { laneOf, LaneQueue, inLane } from '../src/jobs/lanes.js';
import { EnginePool } from '../src/jobs/pool.js';
import type { ThreadTask } from '../src/jobs/thread.js';
import { pullbackRequest } from './support/engine-request.js';
import { sampleInvoice } from './support/sample-invoice.js';
import { fixture } from './support/work.js';

const candles = { ...readCandlesCsv(fixture('official/EURUSD_H1_2017-2018.csv')).candles, symbol: 'EURUSD', timeframe: 'H1' as const };

const request = (runSeq: number) => pullbackRequest(candles, 'H1', runSeq);

describe('EnginePool: the lanes', () => {
  const pool = new EnginePool(1);
  after(() => pool.close());

  it('answers a CSV, an invoice and a workbook queued after three backtests before the two backtests still waiting', async () => {
    // The thread started and idle: the first backtest goes to it, the others wait in the queue.
    await pool.csv(headCandles(candles, 10));
    const { workbook, result: alone } = await pool.run(candles, request(0));
    const done: string[] = [];
    const track = <T>(label: string, promise: Promise<T>) => promise.then((value) => (done.push(label), value));
    const runs = [0, 1, 2].map((i) => track(`backtest ${i}`, pool.run(candles, request(i))));
    assert.equal(pool.queued(), 2, 'two backtests wait');
    const quick = [
      track('csv', pool.csv(headCandles(candles, 50))),
      track('invoice', pool.invoicePdf(sampleInvoice())),
      track('workbook', pool.workbook(workbook)),
    ];
    assert.equal(pool.queued(), 5, 'two backtests and three quick tasks wait');
    assert.equal(pool.queuedBacktests(), 2, 'the queue depth counts the backtests only');
    await Promise.all([...runs, ...quick]);
    assert.equal(pool.queuedBacktests(), 0);
    assert.deepEqual(done, ['backtest 0', 'csv', 'invoice', 'workbook', 'backtest 1', 'backtest 2']);
    // The waiting changed no answer: each backtest found what the same run alone found.
    const results = await Promise.all(runs);
    assert.ok(alone.counts.setups > 100, `${alone.counts.setups} setups`);
    assert.deepEqual(results.map((r) => r.result.counts), [alone.counts, alone.counts, alone.counts]);
    assert.deepEqual(results.map((r) => r.result.statistics), [alone.statistics, alone.statistics, alone.statistics]);
  });
});

describe('LaneQueue', () => {
  const task = (kind: ThreadTask['kind'], n: number) => inLane({ kind, n } as unknown as ThreadTask);
  const labels = (queue: LaneQueue) => {
    const out: string[] = [];
    for (let t = queue.shift(); t; t = queue.shift()) out.push(`${(t as unknown as { kind: string }).kind} ${(t as unknown as { n: number }).n}`);
    return out;
  };

  it('puts the tasks a person waits on first, each lane in order', () => {
    assert.deepEqual(
      (['backtest', 'month-files', 'csv', 'workbook', 'invoice-pdf', 'sandbox-input', 'sandbox-answer'] as const).map(laneOf),
      ['in-turn', 'in-turn', 'first', 'first', 'first', 'first', 'first'],
    );
    const queue = new LaneQueue();
    [task('backtest', 1), task('csv', 2), task('month-files', 3), task('workbook', 4), task('backtest', 5), task('sandbox-answer', 6)].forEach((t) => queue.push(t as never));
    assert.equal(queue.size, 6);
    assert.equal(queue.backtests, 2);
    assert.deepEqual(labels(queue), ['csv 2', 'workbook 4', 'sandbox-answer 6', 'backtest 1', 'month-files 3', 'backtest 5']);
    assert.equal(queue.size, 0);
    assert.equal(queue.backtests, 0);
    assert.equal(queue.shift(), null);
  });

  it('returns a task piscina could not hand over to the head of its lane, and removes an aborted one', () => {
    const queue = new LaneQueue();
    const [b1, b2, c1, c2] = [task('backtest', 1), task('backtest', 2), task('csv', 1), task('csv', 2)] as never[];
    [b1, b2, c1, c2].forEach((t) => queue.push(t));
    const first = queue.shift();
    assert.equal(first, c1);
    queue.unshift(first!);
    assert.equal(queue.backtests, 2);
    queue.remove(b2);
    assert.equal(queue.backtests, 1, 'an aborted backtest no longer waits');
    assert.throws(() => queue.remove(b2), /not in the queue/);
    assert.equal(queue.backtests, 1, 'a refused removal counts nothing');
    const run = queue.shift() && queue.shift() && queue.shift();
    assert.equal(run, b1);
    assert.equal(queue.backtests, 0);
    queue.unshift(run!);
    assert.equal(queue.backtests, 1, 'a backtest put back waits again');
    assert.deepEqual(labels(queue), ['backtest 1']);
  });

  it('keeps its order over many pushes and shifts (the consumed head is dropped as it goes)', () => {
    const queue = new LaneQueue();
    const order: number[] = [];
    let n = 0;
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < 7; i++) queue.push(task('backtest', n++) as never);
      for (let i = 0; i < 5; i++) order.push((queue.shift() as unknown as { n: number }).n);
    }
    while (queue.size) order.push((queue.shift() as unknown as { n: number }).n);
    assert.deepEqual(order, Array.from({ length: n }, (_, i) => i));
  });

  it('sends the task to the thread without its lane (a symbol key, not cloned)', () => {
    const sent = structuredClone(task('csv', 1));
    assert.deepEqual(Object.getOwnPropertySymbols(sent), []);
    assert.deepEqual(sent, { kind: 'csv', n: 1 });
  });
});
