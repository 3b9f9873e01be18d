import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Candles } from '@bt/core/candles';
import { LIBRARY_TIMEFRAMES, TIMEFRAMES, type TimeframeKey } from '@bt/core/catalogue';
import { readCandlesFile } from '@bt/core/node';
import { monthsOf, resampleCandles } from './series.js';
import type { DatasetStore } from './store.js';

/**
 * Real market data the library starts with (docs/server.md "Dataset store"): the fixtures whose
 * instrument is in the catalogue, read as they are published (tabs, no header row: core's `auto`
 * format) and converted to UTC with the offset fixtures/README.md documents, split by month, and
 * resampled to the higher library timeframes when the source is finer (never to lower ones).
 * Generated data never enters the library (the benchmark builds its own store).
 */
export interface SeedSource {
  /** Relative to the fixtures directory. */
  readonly file: string;
  readonly symbol: string;
  readonly timeframe: TimeframeKey;
  /** Offset of the file's naive times (none: the file carries UTC offsets). */
  readonly utcOffset?: string;
  readonly source: string;
}

const MARKET_REPO = 'TheSnowGuru/Stocks-Futures-Financial-Time-series-Tick-Bar-Data';

/** fixtures/market/: the last 18 months of each file (GMT, the source says), by catalogue symbol. */
const MARKET_FILES: readonly [file: string, symbol: string, timeframe: TimeframeKey][] = [
  ['AUDCHF_H4.csv', 'AUDCHF', 'H4'],
  ['AUDUSD_H4.csv', 'AUDUSD', 'H4'],
  ['EURAUD_H4.csv', 'EURAUD', 'H4'],
  ['EURCAD_H4.csv', 'EURCAD', 'H4'],
  ['EURCHF_H4.csv', 'EURCHF', 'H4'],
  ['EURGBP_H4.csv', 'EURGBP', 'H4'],
  ['EURJPY_H4.csv', 'EURJPY', 'H4'],
  ['EURNZD_H4.csv', 'EURNZD', 'H4'],
  ['EURUSD_H4.csv', 'EURUSD', 'H4'],
  ['GBPAUD_H4.csv', 'GBPAUD', 'H4'],
  ['GBPCAD_H4.csv', 'GBPCAD', 'H4'],
  ['GBPCHF_H4.csv', 'GBPCHF', 'H4'],
  ['GBPJPY_H4.csv', 'GBPJPY', 'H4'],
  ['GBPUSD_H4.csv', 'GBPUSD', 'H4'],
  ['NZDUSD_H4.csv', 'NZDUSD', 'H4'],
  ['USDCAD_H4.csv', 'USDCAD', 'H4'],
  ['USDCHF_H4.csv', 'USDCHF', 'H4'],
  ['USDJPY_H4.csv', 'USDJPY', 'H4'],
  ['XAUUSD_H4.csv', 'XAUUSD', 'H4'],
  ['XAGUSD_H1.csv', 'XAGUSD', 'H1'],
  ['BRENTCMDUSD_H1.csv', 'BRENT', 'H1'],
  ['DEUIDXEUR_H1.csv', 'GER40', 'H1'],
  ['GBRIDXGBP_H1.csv', 'UK100', 'H1'],
  ['USA30IDXUSD_H1.csv', 'US30', 'H1'],
  ['USA500IDXUSD_H1.csv', 'US500', 'H1'],
  ['USATECHIDXUSD_H1.csv', 'NAS100', 'H1'],
  ['BTCUSD_M30.csv', 'BTC-USD', 'M30'],
  ['ETHUSD_M30.csv', 'ETH-USD', 'M30'],
];

export const FIXTURE_SOURCES: readonly SeedSource[] = [
  ...MARKET_FILES.map(([file, symbol, timeframe]): SeedSource => ({
    file: `market/${file}`,
    symbol,
    timeframe,
    utcOffset: 'UTC',
    source: `${MARKET_REPO} ${file} (GMT), 2022-03 → 2023-09`,
  })),
  {
    file: 'official/EURUSD_H1_2017-2018.csv',
    symbol: 'EURUSD',
    timeframe: 'H1',
    source: 'kernc/backtesting.py EURUSD.csv (UTC), 2017-04 → 2018-02',
  },
  {
    // MetaTrader export in broker time (UTC+2 winter / UTC+3 summer): one fixed +02:00, as the
    // fixtures do, so summer candles are one hour late in UTC (fixtures/README.md).
    file: 'smc/EURUSD_15M.csv',
    symbol: 'EURUSD',
    timeframe: 'M15',
    utcOffset: '+02:00',
    source: 'joshyattridge/smart-money-concepts EURUSD_15M.csv (broker time read as UTC+2), 2022-10 → 2023-10',
  },
  {
    // Euro Stoxx 50 (an inference from its price level), exchange time CET = UTC+1 in January.
    file: 'backtrader/2006-min-005.txt',
    symbol: 'EU50',
    timeframe: 'M5',
    utcOffset: '+01:00',
    source: 'mementum/backtrader 2006-min-005.txt (exchange time read as UTC+1), 2006-01',
  },
  {
    // Renamed UNITTEST/BTC in freqtrade, byte-identical to real ETH/BTC data (fixtures/README.md).
    file: 'freqtrade/ETH_BTC-5m.json',
    symbol: 'ETH-BTC',
    timeframe: 'M5',
    source: 'freqtrade/freqtrade ETH_BTC-5m.json (UTC), 2018-01-10 → 2018-01-30',
  },
  {
    file: 'freqtrade/XRP_ETH-5m.json',
    symbol: 'XRP-ETH',
    timeframe: 'M5',
    source: 'freqtrade/freqtrade XRP_ETH-5m.json (UTC), 2019-10-11 → 2019-10-13',
  },
  {
    file: 'freqtrade/XRP_USDT_USDT-5m-futures.json',
    symbol: 'XRP-USDT',
    timeframe: 'M5',
    source: 'freqtrade/freqtrade XRP_USDT_USDT-5m-futures.json (perpetual futures, UTC), 2021-11-15 → 2021-11-21',
  },
];

/** The repository's fixtures directory (the same four levels up from src/ and from dist/). */
export function defaultFixturesDir(): string {
  return fileURLToPath(new URL('../../../../fixtures', import.meta.url));
}

/** The library timeframes strictly above `timeframe` (resampling only goes up). */
export function higherLibraryTimeframes(timeframe: TimeframeKey): TimeframeKey[] {
  const order = TIMEFRAMES.map((t) => t.key);
  const rank = order.indexOf(timeframe);
  return order.filter((tf, i) => i > rank && LIBRARY_TIMEFRAMES.includes(tf));
}

/**
 * Imports each source, then its resampled higher timeframes; returns how many month files were
 * written. A month that a source holds natively is never replaced by a resampled one (EURUSD H4
 * comes from the H4 file in GMT, not from the M15 file in broker time); resampled months fill
 * only the months no native file covers.
 */
export async function seedLibrary(
  store: DatasetStore,
  fixturesDir = defaultFixturesDir(),
  log: (message: string) => void = () => {},
  sources: readonly SeedSource[] = FIXTURE_SOURCES,
  /** A stop asked during the start: the seed ends between two series (the next start seeds again: bootstrap.ts). */
  signal?: AbortSignal,
): Promise<number> {
  let written = 0;
  const native = new Set<string>();
  const loaded: { source: SeedSource; candles: Candles }[] = [];
  for (const source of sources) {
    signal?.throwIfAborted();
    const path = join(fixturesDir, source.file);
    if (!existsSync(path)) {
      log(`bt: seed source missing, skipped: ${path}`);
      continue;
    }
    const file = await readCandlesFile(path, { utcOffset: source.utcOffset, symbol: source.symbol, timeframe: source.timeframe });
    written += (await store.importSeries(file.candles, { symbol: source.symbol, timeframe: source.timeframe, source: source.source })).length;
    for (const month of monthsOf(file.candles)) native.add(`${source.symbol}/${source.timeframe}/${month}`);
    loaded.push({ source, candles: file.candles });
  }
  for (const { source, candles } of loaded) {
    for (const higher of higherLibraryTimeframes(source.timeframe)) {
      signal?.throwIfAborted();
      const months = (month: string) => !native.has(`${source.symbol}/${higher}/${month}`);
      const resampled = resampleCandles(candles, higher);
      written += (await store.importSeries(resampled, { symbol: source.symbol, timeframe: higher, source: `${source.source}, resampled to ${higher}`, months })).length;
    }
  }
  return written;
}
