export type * from './types.js';
export { computeStatistics } from './compute.js';
export { GOLDEN_HOURS_MAX, goldenHoursText, goldenMinTrades, goldenRanks, rankGoldenHours } from './golden.js';
export { wilsonInterval, Z95, type Interval } from './wilson.js';
export {
  SESSION_BUCKETS,
  WEEKDAY_LABELS,
  sessionForHour,
  sessionIndexForHour,
  sessionHoursLabel,
  utcWeekday,
  type SessionBucket,
  type WeekdayLabel,
} from './buckets.js';
export { backtestSummary, type BacktestSummaryFields } from './summary.js';
