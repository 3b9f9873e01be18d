// What the TUI does outside React, injected so a test can drive the app with the real engine.
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { runBacktest, type BacktestResult } from '@bt/core/backtest';
import { pipSize } from '@bt/core/catalogue';
import { loadCandles, type LoadedData } from '../data.js';
import type { ReadCandlesOptions } from '@bt/core/candles';

export interface RunChoice {
  readonly strategy: string;
  readonly symbol: string;
  readonly params: Record<string, unknown>;
  readonly slMode: 'external' | 'internal';
  readonly slPips?: number;
  readonly tp1Pips?: number;
  readonly tp2Pips?: number;
  readonly from?: number;
  readonly to?: number;
}

export interface TuiDeps {
  /** Candle files under the folder, as paths relative to it. */
  listFiles(dir: string): Promise<string[]>;
  load(path: string): Promise<LoadedData>;
  run(data: LoadedData, choice: RunChoice): Promise<BacktestResult>;
}

const CANDLE_FILE = /\.(csv|txt|xlsx|json|arrow|arrows|ipc|feather)$/i;
const SKIP = new Set(['node_modules', 'dist', 'expected', 'golden']);

/** Candle-looking files up to three folders deep (no hidden folders, node_modules, results), at most 500. */
export async function listCandleFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string, depth: number) => {
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (found.length >= 500) return;
      if (entry.name.startsWith('.')) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (depth < 3 && !SKIP.has(entry.name)) await walk(path, depth + 1);
      } else if (CANDLE_FILE.test(entry.name) && !/-runs\.csv$/.test(entry.name)) {
        found.push(relative(dir, path));
      }
    }
  };
  await walk(dir, 0);
  return found;
}

export function realDeps(read: ReadCandlesOptions = {}): TuiDeps {
  return {
    listFiles: listCandleFiles,
    load: (path) => loadCandles(path, read, undefined),
    run: (data, c) =>
      runBacktest(data.file.candles, {
        strategy: c.strategy, params: c.params, unknownParams: 'error', slMode: c.slMode, slPips: c.slPips, tp1Pips: c.tp1Pips, tp2Pips: c.tp2Pips,
        from: c.from, to: c.to, symbol: c.symbol, timeframe: data.timeframe, pipSize: pipSize(c.symbol),
      }),
  };
}
