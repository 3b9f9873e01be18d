import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AsciiSink } from '../src/report/bytes.js';
import { seededRandom as prng } from '@bt/core/candles';

const decoder = new TextDecoder();

function written(write: (sink: AsciiSink) => void): string {
  const sink = new AsciiSink(4);
  write(sink);
  return decoder.decode(sink.bytes());
}

test('number() prints exactly what String() prints: prices, pips, R, ratios, integers, edge magnitudes', () => {
  const rand = prng(3);
  const values: number[] = [0, -0, 1, -1, 7, 10, 1e9, 1e9 - 1, -123456789, 2 ** 53, 1e21, 1.5e-7, 1e-6, 0.000001, 0.0000015, 1e-5, 0.1, 0.2, 0.3, 0.1 + 0.2, 4 / 7, 1 / 3, 2 / 3, -2 / 3, 999999999.999999, 999999999.9999999, 123456.123456, 0.0001, 1.10062, 150.123, 1e6 + 0.5];
  for (let i = 0; i < 20_000; i++) {
    const price = 1.1 + (rand() - 0.5) * 0.05;
    values.push(Math.round(price * 1e5) / 1e5); // a 5-decimal quote
    values.push(Math.round(rand() * 300_000) / 1000); // JPY-like quote
    values.push(Math.round(rand() * 250) / 10); // pips
    values.push(price); // full-precision double
    values.push(Math.round(rand() * 1e4) / Math.round(1 + rand() * 1e4)); // a ratio
    values.push(-rand() * 10 ** Math.floor(rand() * 14 - 7)); // any sign and magnitude
    values.push(Math.floor(rand() * 2 ** 40) - 2 ** 39); // integers
    values.push((price - 1.1) * 1e-3); // tiny
  }
  for (const value of values) assert.equal(written((s) => s.number(value)), String(value), `${value}`);
});

test('excelDate() writes serials that read back as the same millisecond (exceljs rounding), and whole days as integers', () => {
  const rand = prng(5);
  const times = [0, Date.UTC(2024, 0, 1), Date.UTC(2024, 0, 1, 23, 59, 59, 999), Date.UTC(1999, 11, 31, 12), Date.UTC(2100, 1, 28, 0, 0, 0, 1)];
  for (let i = 0; i < 20_000; i++) times.push(Math.floor(Date.UTC(2000, 0, 1) + rand() * 100 * 365 * 86_400_000));
  for (const ms of times) {
    const text = written((s) => s.excelDate(ms));
    assert.match(text, /^\d+(\.\d{1,11})?$/, text);
    const serial = Number(text);
    assert.equal(Math.round((serial - 25569) * 24 * 3600 * 1000), ms, `${new Date(ms).toISOString()}: ${text}`);
    assert.ok(Math.abs(serial - (ms / 86_400_000 + 25569)) < 1e-10, text);
  }
  assert.equal(written((s) => s.excelDate(Date.UTC(2024, 0, 1))), '45292');
  assert.equal(written((s) => s.excelDate(Date.UTC(2024, 0, 1, 12))), '45292.5');
  // Outside the integer-arithmetic range: the double itself.
  assert.equal(written((s) => s.excelDate(-86_400_000)), '25568');
  assert.equal(written((s) => s.excelDate(0.5)), String(0.5 / 86_400_000 + 25569));
});

test('uint() and ascii() grow the buffer as needed', () => {
  const text = written((s) => {
    for (let i = 0; i < 1000; i++) {
      s.ascii('<c>');
      s.uint(i * 1_000_003);
    }
  });
  assert.equal(text, Array.from({ length: 1000 }, (_, i) => `<c>${i * 1_000_003}`).join(''));
});
