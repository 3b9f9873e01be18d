export type { Candles } from './types.js';
export { OHLCV_COLUMNS } from './types.js';
export { candlesFromColumns, candlesFromTable, withExtraColumns, type CandleColumns, type CandleLabels } from './columns.js';
