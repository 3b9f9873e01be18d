import type { TimeframeKey } from './types.js';

const MINUTE = 60_000;

export interface TimeframeDefinition {
  readonly key: TimeframeKey;
  readonly label: string;
  readonly stepMs: number;
}

export const TIMEFRAMES: readonly TimeframeDefinition[] = [
  { key: 'M1', label: '1 minute', stepMs: MINUTE },
  { key: 'M5', label: '5 minutes', stepMs: 5 * MINUTE },
  { key: 'M15', label: '15 minutes', stepMs: 15 * MINUTE },
  { key: 'M30', label: '30 minutes', stepMs: 30 * MINUTE },
  { key: 'H1', label: '1 heure', stepMs: 60 * MINUTE },
  { key: 'H4', label: '4 heures', stepMs: 240 * MINUTE },
  { key: 'D1', label: '1 jour', stepMs: 1440 * MINUTE },
];

/** Timeframes the public CSV library lists (docs/product.md §2.9: M1 and D1 are filtered out). */
export const LIBRARY_TIMEFRAMES: readonly TimeframeKey[] = ['H4', 'H1', 'M30', 'M15', 'M5'];

const byKey = new Map(TIMEFRAMES.map((t) => [t.key, t]));
/** Accepted spellings beyond the keys themselves: D is the library's name for D1. */
const ALIASES: Record<string, TimeframeKey> = { D: 'D1', '1D': 'D1', '1M': 'M1', '5M': 'M5', '15M': 'M15', '30M': 'M30', '1H': 'H1', '4H': 'H4' };

export function isTimeframe(value: string): value is TimeframeKey {
  return byKey.has(value as TimeframeKey);
}

/** Normalises a timeframe name (case-insensitive, D and 15M style accepted); throws `invalid timeframe: X`. */
export function parseTimeframe(value: string): TimeframeKey {
  const upper = String(value).trim().toUpperCase();
  if (isTimeframe(upper)) return upper;
  const alias = ALIASES[upper];
  if (alias) return alias;
  throw new Error(`invalid timeframe: ${value} (expected one of ${TIMEFRAMES.map((t) => t.key).join(', ')})`);
}

export function timeframeStepMs(key: TimeframeKey): number {
  return byKey.get(key)!.stepMs;
}

/** The timeframe whose step is exactly `stepMs`, if any. */
export function timeframeForStep(stepMs: number): TimeframeKey | undefined {
  return TIMEFRAMES.find((t) => t.stepMs === stepMs)?.key;
}
