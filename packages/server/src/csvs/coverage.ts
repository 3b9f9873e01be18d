import { parseTimeframe, timeframeStepMs } from '@bt/core/catalogue';
import { monthBounds } from '../datasets/series.js';

const DAY = 86_400_000;

/**
 * How much of a month may be left uncovered at either end before a library month is called
 * partial: four days, so that a month opening on a weekend followed by a holiday (1 January on a
 * Friday: markets shut until Sunday night or Monday) or closing on a weekend is still whole.
 */
export const PARTIAL_EDGE_MS = 4 * DAY;

/**
 * A library month is partial (docs/api.md "GET /api/list_csv_library") when its first candle opens
 * more than PARTIAL_EDGE_MS after the month starts, when its last candle closes more than that
 * before the month ends, or when the month is not over yet. Gaps inside a month are not seen here.
 */
export function isPartialMonth(month: string, timeframe: string, firstCandle: Date, lastCandle: Date, now: Date): boolean {
  const { start, end } = monthBounds(month);
  let step = 0;
  try {
    step = timeframeStepMs(parseTimeframe(timeframe));
  } catch {
    // An unknown timeframe: the edge alone decides.
  }
  if (now.getTime() < end) return true;
  return firstCandle.getTime() - start > PARTIAL_EDGE_MS || end - (lastCandle.getTime() + step) > PARTIAL_EDGE_MS;
}
