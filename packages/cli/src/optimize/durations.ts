// Window lengths of `bt walk-forward`: 90d, 12w, 36h, 30min (days, weeks, hours, minutes).
import { quoted, UsageError } from '../errors.js';

const UNITS: Readonly<Record<string, number>> = { min: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/**
 * From one minute (core's shortest window) to 100 years: `0.0001d` and a 400-digit `d` (Infinity)
 * used to pass here and be refused by core after the data was read, in milliseconds and under
 * core's field name (`folds.inSampleMs`) instead of the flag's.
 */
const MIN_MS = 60_000;
const MAX_MS = 36_500 * 86_400_000;

export function parseDuration(flag: string, text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(min|h|d|w)\s*$/i.exec(text);
  const ms = m ? Math.round(Number(m[1]) * UNITS[m[2].toLowerCase()]) : Number.NaN;
  if (!(ms >= MIN_MS && ms <= MAX_MS)) throw new UsageError(`invalid ${flag}: ${quoted(text)} (expected a duration from 1min to 36500d, such as 180d, 12w, 36h or 30min)`);
  return ms;
}
