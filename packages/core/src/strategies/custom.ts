import type { Candles } from '../candles/types.js';
import type { EntryMode, FilterKind, StrategyParams } from '../catalogue/types.js';
import { SetupBuilder } from '../patterns/builder.js';
import { applyConfirmCandle } from '../patterns/refine.js';
import type { Setups } from '../patterns/types.js';
import type { StrategyPlan } from './registry.js';

/** One signal of a signal function. */
export interface StrategySignal {
  /** The candle at whose close the signal is known (entries happen on later candles only). */
  readonly index: number;
  readonly side: 'buy' | 'sell';
  /** A zone to rest an order in (pullback strategies); its far edge is the internal stop. */
  readonly zone?: { readonly top: number; readonly bottom: number };
  /** Internal stop; default: the zone's far edge, else the signal candle's low (buy) / high (sell). */
  readonly stop?: number;
}

/**
 * A strategy defined outside the catalogue (imported Python, AI-generated, a test): a function
 * from candles and parameters to signals. It plugs into the same pipeline as the official ones:
 * the same filters, entry rules, exits, statistics and report. It must not look ahead: a signal
 * at `index` may use candles up to `index` only (the engine cannot check this for it).
 */
export interface SignalStrategy {
  readonly key: string;
  readonly label?: string;
  /** 'signal' (default): entry at the next open. 'pullback': every signal carries a zone. */
  readonly entryMode?: EntryMode;
  /** Catalogue filters applied on top of the function's own logic. */
  readonly filters?: readonly FilterKind[];
  /** Parameter names it reads (its signature); unknown names are refused or dropped. */
  readonly params?: readonly string[];
  signals(candles: Candles, params: StrategyParams): Iterable<StrategySignal>;
}

export function isSignalStrategy(value: unknown): value is SignalStrategy {
  return typeof value === 'object' && value !== null && typeof (value as SignalStrategy).signals === 'function' && typeof (value as SignalStrategy).key === 'string';
}

/** Checks and orders a signal function's output into setups; throws on the first bad signal. */
export function signalsToSetups(strategy: SignalStrategy, candles: Candles, signals: Iterable<StrategySignal>): Setups {
  const n = candles.length;
  const pullback = (strategy.entryMode ?? 'signal') === 'pullback';
  const rows: { index: number; side: number; top: number; bottom: number; stop: number; order: number }[] = [];
  let order = 0;
  for (const signal of signals) {
    const where = `signal ${order + 1} of ${strategy.key}`;
    const index = signal?.index;
    if (!Number.isInteger(index) || index < 0 || index >= n) throw new Error(`invalid ${where}: index ${JSON.stringify(index)} (expected an integer 0..${n - 1})`);
    if (signal.side !== 'buy' && signal.side !== 'sell') throw new Error(`invalid ${where}: side ${JSON.stringify(signal.side)} (expected buy or sell)`);
    const side = signal.side === 'buy' ? 1 : -1;
    let top: number;
    let bottom: number;
    if (signal.zone) {
      ({ top, bottom } = signal.zone);
      if (!Number.isFinite(top) || !Number.isFinite(bottom) || !(top > bottom)) throw new Error(`invalid ${where}: zone ${JSON.stringify(signal.zone)} (expected finite top > bottom)`);
    } else if (pullback) {
      throw new Error(`invalid ${where}: a pullback strategy's signal needs a zone {top, bottom}`);
    } else {
      top = candles.high[index];
      bottom = candles.low[index];
    }
    const stop = signal.stop ?? (side > 0 ? bottom : top);
    if (!Number.isFinite(stop)) throw new Error(`invalid ${where}: stop ${JSON.stringify(signal.stop)}`);
    rows.push({ index, side, top, bottom, stop, order: order++ });
  }
  rows.sort((a, b) => a.index - b.index || a.order - b.order);
  const out = new SetupBuilder('custom', rows.length);
  for (const r of rows) out.push(r.side, r.top, r.bottom, r.stop, r.index, r.index);
  return out.finish();
}

/** The plan of a signal function. `confirm_candle`, when it reads it, applies as for the official ones. */
export function signalPlan(strategy: SignalStrategy): StrategyPlan {
  if (!/^[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*$/.test(strategy.key) || strategy.key.length > 120) throw new Error(`invalid strategy key: ${JSON.stringify(strategy.key)} (words of letters, digits and '-' joined by '_')`);
  const entryMode = strategy.entryMode ?? 'signal';
  if (entryMode !== 'signal' && entryMode !== 'pullback') throw new Error(`invalid entryMode: ${JSON.stringify(entryMode)} (expected signal or pullback)`);
  return {
    key: strategy.key,
    label: strategy.label ?? strategy.key,
    entryMode,
    filters: strategy.filters ?? [],
    pattern: 'custom',
    detect(candles, params) {
      const setups = signalsToSetups(strategy, candles, strategy.signals(candles, params));
      return params.confirm_candle === true ? applyConfirmCandle(setups, candles) : setups;
    },
  };
}
