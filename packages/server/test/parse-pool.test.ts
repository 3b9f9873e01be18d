// The upload parse processes (uploads/parse-pool.ts; docs/security.md, "Uploads"): a file past the
// heap cap or the time limit ends its process alone, the pool goes on serving, waits at its
// concurrency, reuses an idle process and leaves none behind once closed. The server's suite
// runs it once (no database: scripts/test-mariadb.mjs).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CandleParsePool, ParseAborted } from '../src/uploads/parse-pool.js';
import { candleWorkbook } from './support/xlsx-files.js';

const LIMITS = { concurrency: 1, parseMemoryMb: 256, parseTimeoutMs: 60_000 };
const csvTask = (rows: number) => {
  const lines = ['Datetime,Open,High,Low,Close,Volume'];
  for (let i = 0; i < rows; i++) lines.push(`${new Date(Date.UTC(2024, 0, 1) + i * 900_000).toISOString().replace('T', ' ').replace('.000Z', '+00:00')},1.1,1.2,1.0,1.1,5`);
  return { bytes: new TextEncoder().encode(lines.join('\n')), kind: 'csv' as const, filename: 'a.csv', symbol: 'EURUSD', xlsx: { maxInflatedBytes: 1 << 20, maxRows: 1000 } };
};
const monthTask = () => ({ bytes: csvTask(10).bytes, symbol: 'EURUSD', timeframe: 'M15', file: 'EURUSD/M15/EURUSD_M15_2024-01.csv' });

describe('the upload parse processes', () => {
  it('a parse past the heap cap ends its process, never this one, three times over; the next parse gets a new process', async () => {
    const pool = new CandleParsePool({ ...LIMITS, parseMemoryMb: 48 });
    try {
      const big = { bytes: new Uint8Array(candleWorkbook(60_000)), kind: 'xlsx' as const, filename: 'big.xlsx', symbol: 'EURUSD', xlsx: { maxInflatedBytes: 512 << 20, maxRows: 1_000_000 } };
      // Worker threads aborted the whole process here about once in six (a V8 heap-limit abort),
      // hence ten crashes in a row then. A crash in a process of its own cannot reach this one,
      // and the third test below checks that the parse runs in another process: three crashes in
      // a row say the pool recovers from each (docs/development.md, "Repeats that test nothing more").
      for (let i = 0; i < 3; i++) await assert.rejects(pool.parse({ ...big, bytes: big.bytes.slice() }), (e: unknown) => e instanceof ParseAborted && e.reason === 'memory');
      assert.equal((await pool.parse(csvTask(3))).ok, true);
    } finally {
      await pool.close();
    }
  });

  it('a parse past the time limit is ended as a timeout, and its process with it', async () => {
    const pool = new CandleParsePool({ ...LIMITS, parseTimeoutMs: 1 });
    try {
      await assert.rejects(pool.parse(csvTask(3)), (e: unknown) => e instanceof ParseAborted && e.reason === 'timeout');
      for (let i = 0; i < 100 && pool.processes > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(pool.processes, 0, 'the timed-out process is gone');
    } finally {
      await pool.close();
    }
  });

  it('tasks past the concurrency wait their turn in one process, reused while idle; close ends it', async () => {
    const pool = new CandleParsePool({ ...LIMITS, concurrency: 1 });
    const results = await Promise.all(Array.from({ length: 6 }, () => pool.libraryCsv(monthTask())));
    const readers = new Set(results.map((r) => r.reader));
    assert.equal(readers.size, 1, 'one process read them all');
    assert.ok(!readers.has(0) && !readers.has(process.pid), 'not this process');
    assert.ok(results.every((r) => r.ok && r.rows === 10));
    assert.equal(pool.processes, 1);
    const again = await pool.libraryCsv(monthTask());
    assert.ok(readers.has(again.reader), 'the idle process served again');
    await pool.close();
    assert.equal(pool.processes, 0);
    await assert.rejects(pool.parse(csvTask(3)), /closed/);
  });

  it('two processes at a concurrency of two; a file the reader refuses is an answer, not an error', async () => {
    const pool = new CandleParsePool({ ...LIMITS, concurrency: 2 });
    try {
      const results = await Promise.all(Array.from({ length: 4 }, () => pool.libraryCsv(monthTask())));
      assert.ok(new Set(results.map((r) => r.reader)).size <= 2);
      assert.ok(pool.processes <= 2);
      const refused = await pool.parse({ ...csvTask(3), bytes: new TextEncoder().encode('Datetime,Open\nnot a date,1\n') });
      assert.equal(refused.ok, false);
    } finally {
      await pool.close();
    }
  });
});
