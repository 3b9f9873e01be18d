import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seededRandom as prng } from '@bt/core/candles';
import { writeXlsx, type XlsxColumn, type XlsxSheet } from '../src/report/xlsx.js';

type Row = readonly (number | string | null)[];

// Columns whose numbers repeat (the Trades sheet's cost columns) are copied from kept cells
// (sheet-xml.ts, RepeatedValues): the workbook must be byte for byte the one written without.
function workbook(rows: Row[], repeats: boolean): Promise<Uint8Array> {
  const columns: XlsxColumn<Row>[] = rows[0].map((_, c) => ({ value: (row: Row) => row[c], repeats: repeats && c !== 1 }));
  const sheet: XlsxSheet = {
    name: 'Trades',
    headers: rows[0].map((_, c) => `column ${c}`),
    records: { items: rows, columns: columns as XlsxColumn<unknown>[] },
    columnFormats: rows[0].map((_, c) => (c % 2 ? '0.0' : c === 4 ? '0.00%' : null)),
    minWidth: 6,
    maxWidth: 48,
    autoFilter: true,
  };
  return writeXlsx({ sheets: [sheet], creator: 'bt', created: new Date(0) });
}

test('repeated numbers: kept cells give the same bytes as numbers written one by one', async () => {
  const rand = prng(11);
  // Few values (a spread per hour), more than are kept (16 > 8), the odd ones out (NaN, infinities,
  // -0, text), empty cells (the next cell carries its reference), negatives and wide integers.
  const few = [1.2, 2.5, 3, 0.7, 0.5, 0, -0];
  const many = Array.from({ length: 16 }, (_, i) => i / 10 + 0.05);
  const odd = [NaN, Infinity, -Infinity, -0, 'text', null, -1.25, 123456789, 1e21];
  const pick = <T>(values: readonly T[]) => values[Math.floor(rand() * values.length)];
  for (const size of [50, 40_000]) {
    const rows: Row[] = [];
    for (let r = 0; r < size; r++) {
      rows.push([
        pick(few),
        r,
        rand() < 0.1 ? pick(odd) : pick(few),
        pick(many),
        rand() < 0.05 ? null : pick(few),
        rand() < 0.2 ? pick(odd) : pick(many),
      ]);
    }
    const plain = await workbook(rows, false);
    const kept = await workbook(rows, true);
    assert.ok(plain.length > 0);
    assert.deepEqual(Buffer.from(kept), Buffer.from(plain), `${size} rows`);
  }
});
