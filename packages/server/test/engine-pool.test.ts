// The engine pool's second task kind (src/jobs/pool.ts, thread.ts): an extraction's CSV formatted
// on a worker thread, its bytes moved back. Every embedded-mode extraction takes this path
// (test/csvs.test.ts); here the bytes are checked against core's writer directly. And the pool's
// threads: started by warm(), kept while idle (the first job after a quiet period pays no start).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { headCandles } from '@bt/core';
import { candlesToCsv, readCandlesCsv, withExtraColumns } from '@bt/core/candles';
import { EnginePool } from '../src/jobs/pool.js';
import { renderInvoicePdf } from '../src/payments/invoice-pdf.js';
import { sampleInvoice } from './support/sample-invoice.js';
import { fixture } from './support/work.js';

describe('EnginePool: the CSV task', () => {
  const pool = new EnginePool(1);
  after(() => pool.close());

  const candles = (() => {
    const read = readCandlesCsv(fixture('official/EURUSD_H1_2017-2018.csv')).candles;
    // An extra column with a gap (NaN: an empty cell), as the library's RSI_14 starts.
    const rsi = Float64Array.from(read.close, (c, i) => (i < 14 ? NaN : c * 50));
    return withExtraColumns({ ...read, symbol: 'EURUSD', timeframe: 'H1' }, { RSI_14: rsi });
  })();

  it("formats the official CSV on a thread: the same bytes as core's candlesToCsv, the caller's candles untouched", async () => {
    const expected = new TextEncoder().encode(candlesToCsv(candles));
    const length = candles.length;
    const bytes = await pool.csv(candles);
    assert.ok(length > 1000, `a real series: ${length} candles`);
    assert.equal(Buffer.compare(bytes, expected), 0);
    assert.match(new TextDecoder().decode(bytes.subarray(0, 200)), /^Datetime,Open,High,Low,Close,Volume,RSI_14\n2017-04-19 09:00:00\+00:00,1\.0716,1\.0722,1\.07083,1\.07219,1413,\n/);
    // Copies crossed to the thread (transferred): the caller's columns still hold their values.
    assert.equal(candles.time.length, length);
    assert.equal(candles.extra.RSI_14.length, length);
  });

  it('runs CSV tasks beside each other on one thread, each answer its own', async () => {
    const head = headCandles(candles, 100);
    const answers = await Promise.all([pool.csv(head), pool.csv(candles), pool.csv(head)]);
    assert.deepEqual(answers.map((a) => new TextDecoder().decode(a).split('\n').length - 2), [100, candles.length, 100]);
  });
});

describe('EnginePool: the invoice PDF task', () => {
  const pool = new EnginePool(1);
  after(() => pool.close());

  it("draws an invoice's and a credit note's PDF on a thread: the same bytes as in-process (the API's event loop draws none)", async () => {
    const invoice = sampleInvoice({ buyer: { ...sampleInvoice().buyer, name: 'Łukasz Ωμέγα Иван' } });
    const credit = { ...invoice, label: 'AV-000001', credit_note: { invoice_number: invoice.number, invoice_label: invoice.label, invoice_issued_at: invoice.issued_at, reason: 'refund' as const } };
    for (const content of [invoice, credit]) {
      const [threaded, local] = [await pool.invoicePdf(content), await renderInvoicePdf(content)];
      assert.ok(threaded.byteLength > 10_000, `${threaded.byteLength} bytes`);
      assert.equal(Buffer.compare(Buffer.from(threaded), local), 0);
    }
  });
});

describe('EnginePool: its threads', () => {
  const pool = new EnginePool(2);
  after(() => pool.close());

  it('starts every thread at warm() (bt-worker, before its first job) and keeps them after the tasks, idle', async () => {
    assert.equal(pool.threadsStarted, 0, 'nothing started before it is needed');
    pool.warm();
    assert.equal(pool.threadsStarted, 2);
    const candles = { ...readCandlesCsv(fixture('official/EURUSD_H1_2017-2018.csv')).candles, symbol: 'EURUSD', timeframe: 'H1' as const };
    await Promise.all([pool.csv(headCandles(candles, 10)), pool.csv(headCandles(candles, 10))]);
    // piscina ends a thread above its floor as soon as it idles (idleTimeout 0): these stay.
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(pool.threadsStarted, 2);
  });
});
