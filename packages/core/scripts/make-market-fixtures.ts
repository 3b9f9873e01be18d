// Copies the recent end of each real market file into fixtures/market/, byte for byte: the header
// line when the file has one, then every line from the first day of the window to the end of the
// file, untouched (separators, time format, missing header, no trailing newline), so that bt reads
// them exactly as published (docs/csv-format.md, "plain"). Provenance: fixtures/README.md.
//
// Run: npm run fixtures:market -w @bt/core -- SOURCE_DIR
// (SOURCE_DIR holds the files of TheSnowGuru/Stocks-Futures-Financial-Time-series-Tick-Bar-Data.)
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Whole months kept before the file's last (partial) month. */
export const WINDOW_MONTHS = 18;
/**
 * Files not copied: BTC and ETH H1 are exactly their M30 files resampled to H1 (checked candle by
 * candle over 39,214 and 35,944 candles: no difference), and the library derives H1 from M30.
 */
const SKIPPED = new Set(['BTCUSD_H1.csv', 'ETHUSD_H1.csv']);

const source = process.argv[2];
if (!source) {
  console.error('usage: make-market-fixtures.ts SOURCE_DIR');
  process.exit(2);
}
const target = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'fixtures', 'market');
await mkdir(target, { recursive: true });

/** The first field of a line (comma or tab separated). */
const firstField = (line: string) => line.split(/[,\t]/, 1)[0].trim();

for (const name of (await readdir(source)).filter((n) => n.endsWith('.csv') && !SKIPPED.has(n)).sort()) {
  const text = await readFile(join(source, name), 'latin1');
  const lines = text.split('\n');
  const hasHeader = !/^\d/.test(lines[0]);
  const last = firstField(lines.filter((l) => l.trim() !== '').at(-1)!);
  const [year, month] = last.slice(0, 7).split('-').map(Number);
  const start = new Date(Date.UTC(year, month - 1 - WINDOW_MONTHS, 1)).toISOString().slice(0, 10);
  const from = lines.findIndex((line, i) => (i > 0 || !hasHeader) && firstField(line) >= start);
  const kept = [...(hasHeader ? [lines[0]] : []), ...lines.slice(from)];
  await writeFile(join(target, name), kept.join('\n'), 'latin1');
  console.log(`${name}: ${kept.length - (hasHeader ? 1 : 0)} rows from ${start} (line ${from + 1} of the source)`);
}
