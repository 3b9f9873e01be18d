import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Candles } from '@bt/core/candles';
import { LIBRARY_TIMEFRAMES, TIMEFRAMES, type TimeframeKey } from '@bt/core/catalogue';
import { readCandlesFile } from '@bt/core/node';
import { resampleCandles } from './series.js';
import type { DatasetStore } from './store.js';

/**
 * Real market data the library starts with (docs/server.md "Dataset store"): the fixtures whose
 * instrument is in the catalogue, converted to UTC with the offset fixtures/README.md documents,
 * split by month, and resampled to the higher library timeframes when the source is finer.
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

export const FIXTURE_SOURCES: readonly SeedSource[] = [
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

/** Imports each source and its resampled higher timeframes; returns how many month files were written. */
export async function seedLibrary(
  store: DatasetStore,
  fixturesDir = defaultFixturesDir(),
  log: (message: string) => void = () => {},
  sources: readonly SeedSource[] = FIXTURE_SOURCES,
): Promise<number> {
  let written = 0;
  for (const source of sources) {
    const path = join(fixturesDir, source.file);
    if (!existsSync(path)) {
      log(`bt: seed source missing, skipped: ${path}`);
      continue;
    }
    const loaded = await readCandlesFile(path, { utcOffset: source.utcOffset, symbol: source.symbol, timeframe: source.timeframe });
    const base: Candles = loaded.candles;
    written += (await store.importSeries(base, { symbol: source.symbol, timeframe: source.timeframe, source: source.source })).length;
    for (const higher of higherLibraryTimeframes(source.timeframe)) {
      const resampled = resampleCandles(base, higher);
      written += (await store.importSeries(resampled, { symbol: source.symbol, timeframe: higher, source: `${source.source}, resampled to ${higher}` })).length;
    }
  }
  return written;
}
