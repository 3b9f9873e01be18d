import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crc32, inflateRawSync } from 'node:zlib';
import { zipParts } from '../src/report/zip.js';

/** Reads a ZIP through its central directory with Node's zlib: names, bytes, and every header field checked. */
function unzip(zip: Uint8Array): Map<string, { data: Uint8Array; time: number; day: number }> {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = zip.length - 22;
  assert.equal(view.getUint32(end, true), 0x06054b50, 'end of central directory');
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  assert.equal(at + view.getUint32(end + 12, true), end, 'central directory size');
  const files = new Map<string, { data: Uint8Array; time: number; day: number }>();
  const decoder = new TextDecoder();
  for (let i = 0; i < count; i++) {
    assert.equal(view.getUint32(at, true), 0x02014b50);
    const crc = view.getUint32(at + 16, true);
    const compressed = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const local = view.getUint32(at + 42, true);
    const name = decoder.decode(zip.subarray(at + 46, at + 46 + nameLength));
    assert.equal(view.getUint32(local, true), 0x04034b50);
    assert.equal(view.getUint16(local + 8, true), 8, 'deflate');
    assert.equal(view.getUint32(local + 14, true), crc, 'local crc');
    const start = local + 30 + view.getUint16(local + 26, true);
    const data = new Uint8Array(inflateRawSync(zip.subarray(start, start + compressed)));
    assert.equal(data.length, size, `${name} size`);
    assert.equal(crc32(data), crc, `${name} crc`);
    files.set(name, { data, time: view.getUint16(local + 10, true), day: view.getUint16(local + 12, true) });
    at += 46 + nameLength;
  }
  return files;
}

test('zip parts round trip through zlib with correct CRC-32, sizes and DOS time', async () => {
  const big = new Uint8Array(300_000);
  let seed = 7;
  for (let i = 0; i < big.length; i++) big[i] = (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
  const text = new TextEncoder().encode('<sheetData>'.repeat(5000));
  const parts = [
    { name: '[Content_Types].xml', data: text },
    { name: 'xl/empty.xml', data: new Uint8Array() },
    { name: 'xl/random.bin', data: big },
    { name: 'dossier/é.xml', data: new TextEncoder().encode('é') },
  ];
  const zip = await zipParts(parts, new Date('2024-02-01T10:11:12Z'));
  const files = unzip(zip);
  assert.deepEqual([...files.keys()], parts.map((p) => p.name));
  for (const part of parts) assert.deepEqual(files.get(part.name)!.data, part.data, part.name);
  const { time, day } = files.get('xl/empty.xml')!;
  assert.equal(time, (10 << 11) | (11 << 5) | (12 >> 1));
  assert.equal(day, ((2024 - 1980) << 9) | (2 << 5) | 1);
  assert.ok(zip.length < text.length / 10 + big.length + 2000, 'text is compressed');
});
