// Display rules shared by the web app, the server and the workbook writer. Browser-safe and
// light: no exceljs here (`@bt/core/report` has the workbook itself).
export * from './labels.js';
export { formatPercentCell, formatCell, formatCellFr } from './cells.js';
export { configLabel, configValueText } from './config-labels.js';
export {
  MISSING,
  formatNumberFr,
  formatCompactFr,
  formatIntegerFr,
  formatPercentFr,
  formatRFr,
  priceDecimals,
  formatPriceFr,
  formatDayFr,
  formatDayMonthFr,
  formatPeriodFr,
  rangesTextFr,
  formatDateTimeFr,
  dayToMs,
} from './french.js';
export { csvText } from './csv-text.js';
export { parseWinrate, homeWinrateClass, isHotWinrate, winrateClass, type HomeWinrateClass, type WinrateClass } from './winrate.js';
export {
  HOURLY_TIME_ZONES,
  DEFAULT_HOURLY_TIME_ZONE,
  timeZoneOffsetHours,
  shiftHour,
  hourLabel,
  utcOffsetLabel,
  shiftHourlyRows,
  type HourlyTimeZone,
  type ShiftedHourRow,
} from './timezones.js';
export {
  ALWAYS_HIDDEN_METRICS,
  STOP_SIZE_METRICS,
  configValue,
  usesInternalStop,
  isHiddenMetric,
  visibleMetricRows,
  type ConfigRows,
} from './hidden.js';
export {
  resultFolderName,
  parseResultFolderName,
  workbookFileName,
  isSafeFolderName,
  type ResultFolderParts,
  type ParsedResultFolder,
  type SlMode,
} from '../report/folder.js';
