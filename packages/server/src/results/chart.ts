import { readCandlesIpc, type Candles } from '@bt/core/candles';
import { LIBRARY_TIMEFRAMES, TIMEFRAMES, findSymbol, type TimeframeKey } from '@bt/core/catalogue';
import { OUTCOME_LABELS, SIDE_LABELS, TRADE_HEADERS } from '@bt/core/format';
import { MAX_SHEET_LIMIT } from '@bt/core/report';
import { lowerBound } from '@bt/core/simulate';
import type { BacktestRun } from '../db/models.js';
import { resampleCandles, sliceCandles } from '../datasets/series.js';
import type { DatasetStore } from '../datasets/store.js';
import type { Storage } from '../storage/types.js';
import { RESULT_MESSAGES, type Results } from './service.js';

/**
 * What the result view draws (docs/api.md, GET /api/user/backtests/chart): the candles of the
 * run's period and its trades as the workbook's Trades sheet lists them, so the chart shows exactly
 * the trades the user downloads. Candles come from the dataset store for official runs and from the
 * copy kept beside the workbook for uploads; at most MAX_CHART_CANDLES, resampled to a higher
 * timeframe when the period holds more (a long admin run).
 */
export const MAX_CHART_CANDLES = 20_000;

/** The candles of an upload's period, kept beside its workbook (the upload itself is not stored). */
export const chartCandlesPath = (run: Pick<BacktestRun, 'userId' | 'folder'>) => `results/${run.userId}/${run.folder}/candles.arrow`;

export interface ChartTrade {
  id: number;
  side: 'buy' | 'sell';
  signal_time: number | null;
  entry_time: number;
  order_price: number | null;
  entry_price: number;
  sl: number | null;
  tp1: number | null;
  tp2: number | null;
  outcome: 'tp2' | 'tp1' | 'sl' | 'open';
  tp1_time: number | null;
  tp2_time: number | null;
  sl_time: number | null;
  r_tp1: number | null;
  r_tp2: number | null;
}

const invert = <K extends string>(labels: Record<K, string>) => new Map(Object.entries(labels).map(([k, v]) => [v as string, k as K]));
const SIDES = invert(SIDE_LABELS);
const OUTCOMES = invert(OUTCOME_LABELS);

const time = (cell: unknown): number | null => (typeof cell === 'string' && Number.isFinite(Date.parse(cell)) ? Date.parse(cell) : null);
const num = (cell: unknown): number | null => (typeof cell === 'number' && Number.isFinite(cell) ? cell : null);

/** Trades sheet rows (the reader's cells: numbers, French words, ISO times) to chart trades. */
export function tradesFromSheet(headers: readonly string[], rows: readonly (readonly unknown[])[]): ChartTrade[] {
  const at = (name: string) => headers.indexOf(name);
  const c = {
    id: at(TRADE_HEADERS.id), side: at(TRADE_HEADERS.side), signal: at(TRADE_HEADERS.signalTime), entry: at(TRADE_HEADERS.entryTime),
    order: at(TRADE_HEADERS.orderPrice), price: at(TRADE_HEADERS.entryPrice), sl: at(TRADE_HEADERS.sl), tp1: at(TRADE_HEADERS.tp1),
    tp2: at(TRADE_HEADERS.tp2), outcome: at(TRADE_HEADERS.outcome), tp1Time: at(TRADE_HEADERS.tp1Time), tp2Time: at(TRADE_HEADERS.tp2Time),
    slTime: at(TRADE_HEADERS.slTime), r1: at(TRADE_HEADERS.rTp1), r2: at(TRADE_HEADERS.rTp2),
  };
  const out: ChartTrade[] = [];
  rows.forEach((row, i) => {
    const entry = time(row[c.entry]);
    const price = num(row[c.price]);
    if (entry === null || price === null) return;
    out.push({
      id: num(row[c.id]) ?? i + 1,
      side: SIDES.get(String(row[c.side])) ?? 'buy',
      signal_time: time(row[c.signal]),
      entry_time: entry,
      order_price: num(row[c.order]),
      entry_price: price,
      sl: num(row[c.sl]),
      tp1: num(row[c.tp1]),
      tp2: num(row[c.tp2]),
      outcome: OUTCOMES.get(String(row[c.outcome])) ?? 'open',
      tp1_time: time(row[c.tp1Time]),
      tp2_time: time(row[c.tp2Time]),
      sl_time: time(row[c.slTime]),
      r_tp1: num(row[c.r1]),
      r_tp2: num(row[c.r2]),
    });
  });
  return out;
}

/** The series at `timeframe` or, when it holds more than `max` candles, at the first higher library timeframe that fits. */
export function boundedCandles(candles: Candles, timeframe: TimeframeKey, max = MAX_CHART_CANDLES): { candles: Candles; timeframe: TimeframeKey } {
  if (candles.length <= max) return { candles, timeframe };
  const order = TIMEFRAMES.map((t) => t.key);
  let best = { candles, timeframe };
  for (const tf of order.filter((t, i) => i > order.indexOf(timeframe) && (LIBRARY_TIMEFRAMES.includes(t) || t === 'D1'))) {
    best = { candles: resampleCandles(candles, tf), timeframe: tf };
    if (best.candles.length <= max) break;
  }
  // Still too many (years of D1): the most recent ones.
  return best.candles.length <= max ? best : { candles: sliceCandles(best.candles, best.candles.length - max, best.candles.length), timeframe: best.timeframe };
}

export class ResultCharts {
  constructor(private readonly deps: { results: Results; datasets: DatasetStore; storage: Storage }) {}

  async view(run: BacktestRun) {
    const reader = await this.deps.results.workbook(run);
    const config = new Map(reader.sheet('Config', { limit: MAX_SHEET_LIMIT }).rows.map((r) => [String(r[0]), r[1]]));
    const trades: ChartTrade[] = [];
    for (let offset = 0; ; offset += MAX_SHEET_LIMIT) {
      const page = reader.sheet('Trades', { offset, limit: MAX_SHEET_LIMIT });
      trades.push(...tradesFromSheet(page.headers, page.rows));
      if (offset + MAX_SHEET_LIMIT >= page.total) break;
    }
    const from = Date.parse(`${run.startDate}T00:00:00Z`);
    const to = Date.parse(`${run.endDate}T00:00:00Z`) + 86_400_000 - 1;
    const candles = await this.periodCandles(run, from, to);
    const bounded = candles ? boundedCandles(candles, run.timeframe as TimeframeKey) : null;
    const pip = num(config.get('pip_size')) ?? findSymbol(run.symbol)?.pipSize ?? null;
    return {
      folder: run.folder,
      symbol: run.symbol,
      timeframe: run.timeframe,
      chart_timeframe: bounded?.timeframe ?? null,
      source: run.source,
      strategy: run.strategy,
      strategy_label: run.strategyLabel,
      start_date: run.startDate,
      end_date: run.endDate,
      sl_mode: run.slMode,
      sl_pips: run.slPips,
      tp1_pips: run.tp1Pips,
      tp2_pips: run.tp2Pips,
      pip_size: pip,
      candles: bounded ? columnsOf(bounded.candles) : null,
      candles_note: bounded ? null : RESULT_MESSAGES.noChartCandles,
      trades,
    };
  }

  /** Candles of [from, to]: the library's for official data, the kept copy for an upload (null when there is none). */
  private async periodCandles(run: BacktestRun, from: number, to: number): Promise<Candles | null> {
    if (run.source === 'official') {
      const loaded = await this.deps.datasets.load(run.symbol, run.timeframe, from, to, 0);
      return loaded ? sliceCandles(loaded.candles, loaded.start, loaded.candles.length) : null;
    }
    let bytes: Uint8Array;
    try {
      bytes = await this.deps.storage.read(chartCandlesPath(run));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    const all = readCandlesIpc(bytes, { validate: false }).candles;
    return sliceCandles(all, lowerBound(all.time, from), lowerBound(all.time, to + 1));
  }
}

function columnsOf(c: Candles) {
  return { time: [...c.time], open: [...c.open], high: [...c.high], low: [...c.low], close: [...c.close] };
}

