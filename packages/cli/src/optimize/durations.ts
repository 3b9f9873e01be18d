// Window lengths of `bt walk-forward`: 90d, 12w, 36h, 30min (days, weeks, hours, minutes).
import { UsageError } from '../errors.js';

const UNITS: Readonly<Record<string, number>> = { min: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

export function parseDuration(flag: string, text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(min|h|d|w)\s*$/i.exec(text);
  if (!m || !(Number(m[1]) > 0)) throw new UsageError(`invalid ${flag}: ${JSON.stringify(text)} (expected a duration such as 180d, 12w, 36h or 30min)`);
  return Math.round(Number(m[1]) * UNITS[m[2].toLowerCase()]);
}
