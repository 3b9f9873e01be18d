import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as zlib from 'node:zlib';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { computeStatistics } from '@bt/core/stats';
import { buildReport, compressionStreamDeflater, defaultDeflater, nodeDeflater, readWorkbookSheet, reportSheets, type ReportCell } from '@bt/core/report';
import { makeTrades, type Path } from './trade-factory.js';

function concat(pieces: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

function pieces(): Uint8Array[] {
  let seed = 11;
  const random = Uint8Array.from({ length: 200_000 }, () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24);
  const text = (s: string, n: number) => new TextEncoder().encode(s.repeat(n));
  return [text('<head/>', 3), text('<row r="1"><c><v>1.10062</v></c></row>', 20_000), random, new Uint8Array(0), text('é</worksheet>', 1)];
}

test('Node pieces deflate independently, in any order, into one raw deflate stream with the CRC-32 and size of the whole', async () => {
  const parts = pieces();
  const deflater = nodeDeflater(zlib);
  const sink = deflater.pieces!();
  for (const i of [3, 1, 4, 0, 2]) sink.put(i, parts[i]);
  const whole = concat(parts);
  const out = await sink.finish();
  assert.deepEqual(new Uint8Array(zlib.inflateRawSync(out.raw)), whole);
  assert.equal(out.crc, zlib.crc32(whole));
  assert.equal(out.size, whole.length);
  const once = await deflater.deflate(whole);
  assert.deepEqual(new Uint8Array(zlib.inflateRawSync(once.raw)), whole);
  assert.equal(once.crc, out.crc);
});

test('a missing piece is refused', async () => {
  const sink = nodeDeflater(zlib).pieces!();
  sink.put(0, new Uint8Array(10));
  sink.put(2, new Uint8Array(10));
  await assert.rejects(sink.finish(), /piece 1 missing/);
});

test('the CompressionStream deflater (browsers) gives raw deflate bytes, CRC-32 and size', async () => {
  const whole = concat(pieces());
  const out = await compressionStreamDeflater.deflate(whole);
  assert.deepEqual(new Uint8Array(zlib.inflateRawSync(out.raw)), whole);
  assert.equal(out.crc, zlib.crc32(whole));
  assert.equal(out.size, whole.length);
});

test('in Node the default deflater is zlib (found without importing node:zlib), not CompressionStream', () => {
  const deflater = defaultDeflater();
  assert.notEqual(deflater, compressionStreamDeflater);
  assert.equal(typeof deflater.pieces, 'function');
});

test('a workbook large enough to be deflated in pieces reads back the same through both deflaters', async () => {
  const paths: Path[] = ['tp2', 'sl', 'tp1sl', 'sl', 'tp1open', 'sl', 'open'];
  const start = Date.parse('2024-01-01T00:00:00Z');
  const trades = makeTrades(
    Array.from({ length: 4_000 }, (_, i) => ({
      at: new Date(start + i * 47 * 60_000).toISOString(),
      path: paths[i % paths.length],
      side: i % 3 === 0 ? ('sell' as const) : ('buy' as const),
      rr1: 1 + (i % 4) / 4,
      rr2: 2 + (i % 5) / 5,
      ambiguous: i % 11 === 0 && paths[i % paths.length] === 'sl',
    })),
  );
  const input = { config: [{ metric: 'strategy', value: 'fvg_impulsive' }], statistics: computeStatistics(trades), trades, pipSize: 0.0001, createdAt: 0 };
  const spec = reportSheets(input).find((s) => s.name === 'Trades')!;
  const expected = spec.rows.map((row) => row.map((cell: ReportCell) => (cell instanceof Date ? cell.toISOString() : cell)));
  for (const deflater of [undefined, compressionStreamDeflater]) {
    const bytes = await buildReport({ ...input, deflater });
    const page = await readWorkbookSheet(bytes, 'Trades', { limit: 10_000 });
    assert.equal(page.total, trades.length);
    assert.deepEqual(page.headers, spec.headers);
    assert.deepEqual(page.rows, expected);
  }
});

test('src/report imports no Node built-in (the writer runs in a browser; Node\'s zlib is looked up at run time)', () => {
  const dir = join(import.meta.dirname, '..', 'src', 'report');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(join(dir, file), 'utf8');
    assert.doesNotMatch(text, /from ['"](node:|fs|path|os|stream|buffer|zlib)['"/]/, file);
    assert.doesNotMatch(text, /\bBuffer\./, `${file} uses Buffer`);
  }
});
