export type { Candles } from './types.js';
export { OHLCV_COLUMNS } from './types.js';
export { candlesFromColumns, candlesFromTable, withExtraColumns, type CandleColumns, type CandleLabels } from './columns.js';
export { CandleFileError, CANDLE_ERROR_CODES, CANDLE_WARNING_CODES, type CandleProblem, type CandleProblemCode, type CandleErrorCode, type CandleWarningCode } from './problems.js';
export {
  CANDLE_FORMATS, normalizeCandleOptions,
  type CandleFormat, type ReadCandlesOptions, type NormalizedReadOptions,
} from './options.js';
export type { LoadedCandles } from './builder.js';
export { readCandlesCsv, CsvCandleReader, type CandleFile } from './csv-read.js';
export { readCandlesJson, candlesToJson } from './json.js';
export { readCandlesIpc, candlesToIpc, isArrowIpc } from './ipc.js';
export { readCandlesXlsx, candlesToXlsx, type WriteXlsxOptions } from './xlsx.js';
export { candlesToCsv, candlesCsvChunks, formatCsvNumber, type WriteCsvOptions } from './csv-write.js';
export { readCandles, detectCandleContainer, type CandleContainer } from './read.js';
export { validateCandles } from './validate.js';
export { MAX_COLUMNS as MAX_CANDLE_COLUMNS } from './headers.js';
export { parseDecimal } from './number.js';
export { daysFromCivil, civilFromDays, formatCandleTime } from './datetime.js';
export { seededRandom } from './random.js';
