/**
 * Display rules shared with the workbook and the server live in @bt/core/format (docs/architecture.md §1: those
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
  formatPercentFr,
  formatIntegerFr,
  formatNumberFr,
  formatCompactFr,
  formatPriceFr,
  formatPeriodFr,
  formatDayFr,
  dayToMs,
} from '@bt/core/format';
export type { ConfigRows, HourlyTimeZone, WinrateClass } from '@bt/core/format';
import { dayToMs as toMs, formatPeriodFr as period } from '@bt/core/format';

/** A period written `2023-01-01 → 2023-01-31` (the API's) in French, `1–31 janvier 2023`; other text as it is. */
export function periodLabel(text: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})\s*(?:→|->|–|-|to|au)\s*(\d{4}-\d{2}-\d{2})$/.exec(text.trim());
  const from = m ? toMs(m[1]) : null;
  const to = m ? toMs(m[2]) : null;
  return from !== null && to !== null ? period(from, to) : text;
}

/**
 * Every `YYYY-MM-DD → YYYY-MM-DD` period inside a text written the French way: the server's
 * labels ('EURUSD M15 · FVG pullback multi · 2023-01-01 → 2023-01-31') end with one.
 */
export function withFrenchPeriods(text: string): string {
  return text.replace(/\d{4}-\d{2}-\d{2}\s*→\s*\d{4}-\d{2}-\d{2}/g, (range) => periodLabel(range));
}
