import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tableFromIPC, tableToIPC } from 'apache-arrow';
import { candlesFromColumns, candlesFromTable, withExtraColumns } from '@bt/core/candles';

const f = (...v: number[]) => Float64Array.from(v);
const columns = {
  time: f(Date.UTC(2024, 0, 1, 0, 0), Date.UTC(2024, 0, 1, 0, 5), Date.UTC(2024, 0, 1, 0, 10)),
  open: f(1.1, 1.2, 1.3),
  high: f(1.15, 1.25, 1.35),
  low: f(1.05, 1.15, 1.25),
  close: f(1.12, 1.22, 1.32),
  volume: f(10, 0, 12),
};

test('candles keep int64 ms timestamps in Arrow and plain numbers in the views', () => {
  const candles = candlesFromColumns(columns, { symbol: 'EURUSD', timeframe: 'M5' });
  assert.equal(candles.length, 3);
  assert.deepEqual(candles.table.schema.fields.map((f) => f.name), ['Datetime', 'Open', 'High', 'Low', 'Close', 'Volume']);
  assert.equal(String(candles.table.getChild('Datetime')!.type), 'Timestamp<MILLISECOND>');
  assert.equal(candles.table.getChild('Datetime')!.get(1), Date.UTC(2024, 0, 1, 0, 5));
  assert.equal(candles.symbol, 'EURUSD');
});

test('an Arrow IPC round trip gives back the same series, extra columns included', () => {
  const candles = withExtraColumns(candlesFromColumns(columns), { RSI_14: f(NaN, 40, 55.5) });
  const back = candlesFromTable(tableFromIPC(tableToIPC(candles.table)));
  assert.deepEqual([...back.time], [...columns.time]);
  assert.deepEqual([...back.close], [...columns.close]);
  assert.deepEqual([...back.extra.RSI_14!].slice(1), [40, 55.5]);
  assert.ok(Number.isNaN(back.extra.RSI_14![0]));
});

test('columns of different lengths are refused with the column named', () => {
  assert.throws(() => candlesFromColumns({ ...columns, low: f(1) }), /invalid column low: 1 values for 3 candles/);
});
