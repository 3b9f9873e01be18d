export { buildReport, type ReportInput } from './workbook.js';
export { compressionStreamDeflater, nodeDeflater, defaultDeflater, type Deflater, type DeflatedPart, type PieceDeflater } from './deflate.js';
export {
  readWorkbookMeta,
  readWorkbookSheet,
  openWorkbook,
  workbookReader,
  workbookRows,
  type SheetRows,
  type WorkbookReader,
  WorkbookSheetNotFoundError,
  DEFAULT_SHEET_LIMIT,
  MAX_SHEET_LIMIT,
  MAX_SHEET_CELLS,
  type WorkbookMeta,
  type SheetPage,
  type SheetPageOptions,
  type SheetCell,
} from './reader.js';
export {
  reportSheets,
  globalSheet,
  sessionsSheet,
  hoursSheet,
  weekdaysSheet,
  priceFormat,
  PERCENT_FORMAT,
  DATE_FORMAT,
  R_FORMAT,
  type SheetSpec,
  type ReportCell,
  type ConfigEntry,
  type ConfigValue,
} from './sheets.js';
export {
  resultFolderName,
  parseResultFolderName,
  workbookFileName,
  isSafeFolderName,
  type ResultFolderParts,
  type ParsedResultFolder,
  type SlMode,
} from './folder.js';
