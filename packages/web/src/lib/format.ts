/**
 * Display rules shared with the workbook and the server live in @bt/core/format (DESIGN §1: those
 * rules exist once). This file only narrows what the web app uses from there.
 */
export {
  formatCell,
  formatPercentCell,
  parseWinrate,
  homeWinrateClass,
  isHotWinrate,
  winrateClass,
  SHEET_TAB_LABELS,
  defaultSheet,
  HOURLY_TIME_ZONES,
  DEFAULT_HOURLY_TIME_ZONE,
  timeZoneOffsetHours,
  shiftHourlyRows,
  hourLabel,
  utcOffsetLabel,
  LABELS,
  isHiddenMetric,
  usesInternalStop,
} from '@bt/core/format';
export type { ConfigRows, HourlyTimeZone, WinrateClass } from '@bt/core/format';
