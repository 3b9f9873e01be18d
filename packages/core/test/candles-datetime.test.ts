import { test } from 'node:test';
import assert from 'node:assert/strict';
import { civilFromDays, daysFromCivil, formatCandleTime } from '@bt/core/candles';
import { DatetimeReader, NO_OFFSET } from '../src/candles/datetime.js';

const encoder = new TextEncoder();
const reader = new DatetimeReader();
/** UTC instant of a text, applying the offset it carries; NaN when unreadable or without offset. */
function instant(text: string): number {
  const bytes = encoder.encode(text);
  const wall = reader.parse(bytes, 0, bytes.length);
  if (reader.offsetMinutes === NO_OFFSET) return NaN;
  return wall - reader.offsetMinutes * 60_000;
}
function wallClock(text: string): number {
  const bytes = encoder.encode(text);
  return reader.parse(bytes, 0, bytes.length);
}

test('daysFromCivil and civilFromDays agree with Date.UTC for every day from 1800 to 2200', () => {
  for (let ms = Date.UTC(1800, 0, 1); ms <= Date.UTC(2200, 11, 31); ms += 86_400_000) {
    const d = new Date(ms);
    const days = daysFromCivil(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
    assert.equal(days * 86_400_000, ms);
    assert.deepEqual(civilFromDays(days), [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()]);
  }
});

test('ISO 8601 times with an offset give the same instant as Date.parse', () => {
  const texts = [
    '2024-01-31 13:45:00+00:00', '2024-01-31T13:45:00+00:00', '2024-01-31T13:45:00Z', '2024-01-31 13:45:00 +00:00',
    '2024-02-29 23:59:59+00:00', '2023-10-02 06:45:00+02:00', '2023-10-02 06:45:00-05:00', '2023-10-02 06:45:00+05:30',
    '2023-10-02 06:45+01:00', '2000-01-01T00:00:00.123Z', '1999-12-31T23:59:59.999+00:00', '1970-01-01T00:00:00Z',
    '1969-12-31T23:00:00Z', '2100-03-01T00:00:00Z',
  ];
  for (const text of texts) assert.equal(instant(text), Date.parse(text.replace(' +', '+').replace(' ', 'T')), text);
  assert.equal(instant('2023-10-02 06:45:00+0200'), Date.parse('2023-10-02T06:45:00+02:00'));
  assert.equal(instant('2023-10-02 06:45:00+02'), Date.parse('2023-10-02T06:45:00+02:00'));
});

test('naive times (ISO, MetaTrader dots, slashes, bare dates) read as wall clock without an offset', () => {
  assert.equal(wallClock('2017-04-19 09:00:00'), Date.UTC(2017, 3, 19, 9));
  assert.equal(reader.offsetMinutes, NO_OFFSET);
  assert.equal(wallClock('2022.10.10 00:15:00'), Date.UTC(2022, 9, 10, 0, 15));
  assert.equal(wallClock('2022/10/10 00:15'), Date.UTC(2022, 9, 10, 0, 15));
  assert.equal(wallClock('2004-08-19'), Date.UTC(2004, 7, 19));
  assert.equal(reader.offsetMinutes, NO_OFFSET);
});

test('epoch seconds (10 digits) and milliseconds (13 digits) are UTC', () => {
  assert.equal(instant('1515560100'), 1515560100000);
  assert.equal(instant('1515560100000'), 1515560100000);
  assert.ok(Number.isNaN(instant('20240101')), 'YYYYMMDD is not taken for epoch seconds');
});

test('impossible dates and times are refused', () => {
  for (const text of ['2023-02-29 00:00:00Z', '2024-04-31 00:00:00Z', '2024-13-01 00:00:00Z', '2024-00-10 00:00:00Z', '2024-01-01 24:00:00Z',
    '2024-01-01 23:60:00Z', '2024-01-01 23:59:60Z', '2024-01-01 12:00:00+15:00', '2024-01-01 12:00:00+01:60', '2024-1-1 12:00:00Z',
    '19/04/2017 09:00', '2024-01-01 12:00:00 UTC', '2024-01-01 12:00:00.Z', '2024-01-01x', '', 'abc']) {
    assert.ok(Number.isNaN(wallClock(text)), text);
  }
  assert.ok(!Number.isNaN(wallClock('2000-02-29 00:00:00Z')), '2000 is a leap year');
  assert.ok(Number.isNaN(wallClock('1900-02-29 00:00:00Z')), '1900 is not');
});

test('formatCandleTime writes the official form and reads back to the same instant', () => {
  assert.equal(formatCandleTime(Date.UTC(2017, 3, 19, 9)), '2017-04-19 09:00:00+00:00');
  assert.equal(formatCandleTime(Date.UTC(2017, 3, 19, 9, 5, 7, 250)), '2017-04-19 09:05:07.250+00:00');
  for (let ms = Date.UTC(1990, 0, 1); ms < Date.UTC(2030, 0, 1); ms += 7_777_777_777) assert.equal(instant(formatCandleTime(ms)), ms);
});

test('a candle time outside the years 0000 to 9999 UTC is invalid_datetime, whatever the reader', async () => {
  const { CandleFileError, candlesFromColumns, candlesToIpc, readCandles } = await import('@bt/core/candles');
  const problems = async (input: string | Uint8Array) => {
    try {
      await readCandles(input);
    } catch (error) {
      assert.ok(error instanceof CandleFileError, String(error));
      return error.problems.map((p) => [p.code, p.line, p.column, p.value]);
    }
    return assert.fail('loaded');
  };
  const H = 'Datetime,Open,High,Low,Close,Volume\n';
  // In range as written, out of it once its offset is applied.
  assert.deepEqual(await problems(`${H}9999-12-31 18:00:00-05:00,1,2,0.5,1.5,1\n9999-12-31 19:00:00-05:00,1,2,0.5,1.5,1\n`), [
    ['invalid_datetime', 3, 'Datetime', '10000-01-01 00:00:00+00:00'],
  ]);
  // JSON epoch times are any number: the messages used to read "3.2e+289-undefined-01 00:00:00".
  assert.deepEqual(await problems('[[1e300,1,2,0.5,1.5,1],[1e300,1,2,0.5,1.5,1]]'), [
    ['invalid_datetime', 1, 'date', '1e+300 ms since 1970'],
    ['invalid_datetime', 2, 'date', '1e+300 ms since 1970'],
  ]);
  const time = Float64Array.from([0, 3_600_000, 9e15, 9e15 + 3_600_000]);
  const ones = () => Float64Array.from(time, () => 1);
  const candles = candlesFromColumns({ time, open: ones(), high: ones(), low: ones(), close: ones(), volume: ones() });
  assert.deepEqual(await problems(candlesToIpc(candles)), [
    ['invalid_datetime', 3, 'Datetime', '9000000000000000 ms since 1970'],
    ['invalid_datetime', 4, 'Datetime', '9000000003600000 ms since 1970'],
  ]);
  // The edges themselves load.
  const edges = await readCandles(`${H}0000-01-01 00:00:00+00:00,1,2,0.5,1.5,1\n9999-12-31 23:00:00+00:00,1,2,0.5,1.5,1\n`);
  assert.equal(edges.candles.length, 2);
});
