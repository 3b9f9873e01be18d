// @bt/core/node: the Node-only helpers (files). Everything else in core runs in the browser too.
export { readCandlesFile, writeCandlesFile, candleFileKind, type CandleFileKind, type WriteCandlesFileOptions } from './candle-files.js';
