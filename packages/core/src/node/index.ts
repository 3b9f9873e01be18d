// @bt/core/node: the Node-only helpers (files). Everything else in core runs in the browser too.
export { readCandlesFile, writeCandlesFile, candleFileKind, checkWorkbookFile, WORKBOOK_FILE_BUDGET, MAX_CSV_LINE_BYTES, MAX_JSON_CANDLE_BYTES, type CandleFileKind, type WriteCandlesFileOptions } from './candle-files.js';
export { ownWorkbookText } from './own-workbook.js';
export { walkZip, walkZipEntries, ZipRefusal, type ZipBudget, type EntryBudget, type EntryProblem, type ZipEntryInfo } from './zip-guard.js';
export { checkXlsx, XlsxTooManyRows, type XlsxBudget } from './xlsx-guard.js';
export { writeFileWhole, type FileContent } from './write-file.js';
export { processEnded, hostTag } from './processes.js';
export { unfinishedTempFiles, removeUnfinishedTempFiles, trackTempFile, onTempFile, onUnfinishedCount } from './temp-files/index.js';
export { openUserFile, readOpenedFile, readUserFile, readUserText, UnreadableFileError, MAX_WHOLE_FILE_BYTES, type OpenedFile } from './user-file.js';
export {
  readGoldenPlan, parseGoldenPlan, goldenFilePath, computeGolden, formatGolden, updateGoldenFile, compareGolden, TRADE_COLUMNS,
  type GoldenPlan, type GoldenScenario, type GoldenFile, type GoldenStrategy, type GoldenRow, type GoldenDrift, type ComputeGoldenOptions,
} from './golden.js';
