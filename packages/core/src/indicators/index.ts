export { ema } from './ema.js';
export { rsi, DEFAULT_RSI_PERIOD } from './rsi.js';
export {
  computeIndicator, indicatorColumn, indicatorColumnsFor, withIndicators,
  type IndicatorColumn, type IndicatorKind,
} from './columns.js';
