import { paramWarningText, type ParamWarning } from '../params/warnings.js';

/**
 * Every warning a backtest can carry, as a code and its values (`BacktestResult.notices`), so that
 * a consumer can say it in its own language: the server answers French (docs/server.md,
 * "Backtests, results and credits"). `backtestWarningText` is core's English sentence, which
 * `BacktestResult.warnings` holds and the CLI prints.
 */
export type BacktestWarning =
  | ParamWarning
  /** The period holds no candle: no trade. */
  | { code: 'no_candle_in_period'; candles: number }
  /** spread_from_data without a Spread column holding values. */
  | { code: 'spread_column_missing' }
  /** The Spread column's point (a tenth of a pip) differs from the prices' quoting. */
  | { code: 'spread_point_mismatch'; pointSize: number | null; quoted: number }
  /** Entries whose internal stop left no positive risk. */
  | { code: 'entries_skipped_no_risk'; count: number }
  /** Trades whose candle touched the stop and a target; `lowerTimeframe` when it resolved some. */
  | { code: 'sl_tp_same_candle'; count: number; lowerTimeframe: string | null; resolved: number; unresolved: number };

export type BacktestWarningCode = BacktestWarning['code'];

/** One entry per code: a code added to the union and not here fails to compile. */
const CODES: Record<BacktestWarningCode, true> = {
  param_ignored: true,
  param_given_twice: true,
  ema_fast_slower: true,
  no_candle_in_period: true,
  spread_column_missing: true,
  spread_point_mismatch: true,
  entries_skipped_no_risk: true,
  sl_tp_same_candle: true,
};

/** Every code a backtest's warnings can have (a consumer's translations are tested against it). */
export const BACKTEST_WARNING_CODES = Object.keys(CODES) as BacktestWarningCode[];

export function backtestWarningText(w: BacktestWarning): string {
  switch (w.code) {
    case 'no_candle_in_period':
      return `no candle in the period: no trade (${w.candles} candles in the data)`;
    case 'spread_column_missing':
      return 'spread_from_data: the data has no Spread column with values; the spread given (or 0) applies to every candle';
    case 'spread_point_mismatch':
      return `spread_from_data: the Spread column is read in points of ${w.pointSize} (a tenth of a pip), but the prices are quoted to ${w.quoted}; if the broker's point is ${w.quoted}, give spread_point_size`;
    case 'entries_skipped_no_risk':
      return `${w.count} entries skipped: the internal stop left no positive risk (order price at or beyond the stop)`;
    case 'sl_tp_same_candle': {
      const how = w.lowerTimeframe ? `; ${w.resolved} resolved with ${w.lowerTimeframe} candles, ${w.unresolved} left conservative` : '';
      return `${w.count} trades had SL and a TP in the same candle, counted as SL${how}`;
    }
    default:
      return paramWarningText(w);
  }
}
