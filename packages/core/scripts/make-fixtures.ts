// Regenerates the derived fixtures in fixtures/official/ from the real data in fixtures/.
// Run: npm run fixtures -w @bt/core
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { candlesFromColumns, candlesToCsv, candlesToXlsx, type Candles } from '@bt/core/candles';
import { readCandlesFile, writeCandlesFile } from '@bt/core/node';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'fixtures');
const official = join(fixtures, 'official');

function slice(candles: Candles, rows: number): Candles {
  const cut = (a: Float64Array) => a.slice(0, rows);
  return candlesFromColumns(
    { time: cut(candles.time), open: cut(candles.open), high: cut(candles.high), low: cut(candles.low), close: cut(candles.close), volume: cut(candles.volume) },
    { symbol: candles.symbol, timeframe: candles.timeframe },
  );
}

await mkdir(official, { recursive: true });
// backtesting.py's EURUSD.csv has naive times that its source describes as UTC (fixtures/README.md).
const eurusd = await readCandlesFile(join(fixtures, 'EURUSD.csv'), { utcOffset: 'UTC', symbol: 'EURUSD' });
await writeCandlesFile(join(official, 'EURUSD_H1_2017-2018.csv'), eurusd.candles);

const head = slice(eurusd.candles, 48);
await writeFile(join(official, 'EURUSD_H1_symbol-row.csv'), candlesToCsv(head, { symbolRow: true }));
const custom = candlesToCsv(head).replace(/^Datetime,Open,High,Low,Close,Volume/, 'time,open,high,low,close,volume');
await writeFile(join(official, 'EURUSD_H1_custom-upload.csv'), custom);
await writeFile(join(official, 'EURUSD_H1_crlf.csv'), candlesToCsv(head, { newline: '\r\n' }));
await writeFile(join(official, 'EURUSD_H1_bom.csv'), '\ufeff' + candlesToCsv(head));

const xlsxSlice = slice(eurusd.candles, 200);
await writeFile(join(official, 'EURUSD_H1_slice.xlsx'), await candlesToXlsx(xlsxSlice));
await writeFile(join(official, 'EURUSD_H1_slice_excel-dates.xlsx'), await candlesToXlsx(xlsxSlice, { dates: 'excel' }));
console.log(`fixtures written to ${official}`);
