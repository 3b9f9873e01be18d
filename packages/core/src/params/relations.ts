import type { StrategyParams } from '../catalogue/types.js';
import { ParamError } from './errors.js';
import { paramWarningText, type ParamWarning } from './warnings.js';

/** The period of an EMA_n column name, if it has that shape. */
function emaPeriod(column: unknown): number | undefined {
  const match = typeof column === 'string' ? /^EMA_(\d+)$/i.exec(column) : null;
  return match ? Number(match[1]) : undefined;
}

/**
 * Rules between parameters, checked on the merged values (given and defaults). `explicit` holds the
 * names the caller gave, so the error blames the value the user typed rather than a default.
 * Returns warnings for settings that run but are probably not what was meant.
 */
export function checkParamRelations(params: StrategyParams, explicit: ReadonlySet<string>): string[] {
  return paramRelationWarnings(params, explicit).map(paramWarningText);
}

/** checkParamRelations' warnings as codes and values (params/warnings.ts). */
export function paramRelationWarnings(params: StrategyParams, explicit: ReadonlySet<string>): ParamWarning[] {
  const warnings: ParamWarning[] = [];
  const minWait = params.min_wait_candles;
  const maxWait = params.max_wait_candles;
  if (typeof minWait === 'number' && typeof maxWait === 'number' && minWait > maxWait) {
    if (explicit.has('min_wait_candles') || !explicit.has('max_wait_candles')) {
      throw new ParamError('min_wait_candles', minWait, `at most max_wait_candles (${maxWait})`);
    }
    throw new ParamError('max_wait_candles', maxWait, `at least min_wait_candles (${minWait})`);
  }

  const fast = params.ema_fast;
  const slow = params.ema_slow;
  if (typeof fast === 'string' && typeof slow === 'string') {
    if (fast === slow) {
      const blamed = explicit.has('ema_slow') || !explicit.has('ema_fast') ? 'ema_slow' : 'ema_fast';
      throw new ParamError(blamed, params[blamed], `a different column from ${blamed === 'ema_slow' ? 'ema_fast' : 'ema_slow'}`);
    }
    const fastPeriod = emaPeriod(fast);
    const slowPeriod = emaPeriod(slow);
    if (fastPeriod !== undefined && slowPeriod !== undefined && fastPeriod > slowPeriod) {
      warnings.push({ code: 'ema_fast_slower', fast, slow });
    }
  }
  return warnings;
}
