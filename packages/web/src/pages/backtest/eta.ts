/**
 * Progress and ETA of a running backtest (docs/product.md §2.3, §2.4, §2.9). The last 15 run durations are kept
 * in browser storage per key (data source and timeframe: the two things that change a run's
 * cost per day), each with its period length. An estimate scales the median time per day of that
 * history to the requested period, clamped to 3–60 s; without history it is 6 s plus 250 ms per
 * day, clamped to 4–45 s. The bar follows elapsed/estimate up to 98 %, holds 99 % once the
 * estimate is clearly overrun, and shows 100 % only when the answer arrives.
 */
import type { KeyValueStorage } from '../../session/keyStorage.js';

export const ETA = {
  historySize: 15,
  clampMinMs: 3000,
  clampMaxMs: 60000,
  defaultBaseMs: 6000,
  defaultPerDayMs: 250,
  defaultMinMs: 4000,
  defaultMaxMs: 45000,
  firstCap: 98,
  secondCap: 99,
  /** Past this share of the estimate the bar moves from 98 to 99. */
  overrunFactor: 1.25,
  hideAfterMs: 450,
} as const;

export const ETA_STORAGE_KEY = 'bt_eta_history_v1';

export interface EtaRun {
  /** Wall time of the run, ms. */
  ms: number;
  /** Days in the requested period (at least 1). */
  days: number;
}

export type EtaHistory = Record<string, EtaRun[]>;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

export function etaKey(source: 'official' | 'custom', timeframe: string): string {
  return `${source}:${timeframe.toUpperCase() || '?'}`;
}

export function readEtaHistory(storage: KeyValueStorage): EtaHistory {
  try {
    const parsed = JSON.parse(storage.getItem(ETA_STORAGE_KEY) ?? '{}') as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const history: EtaHistory = {};
    for (const [key, runs] of Object.entries(parsed as Record<string, unknown>)) {
      if (!Array.isArray(runs)) continue;
      history[key] = runs
        .filter((r): r is EtaRun => !!r && typeof r === 'object' && Number.isFinite((r as EtaRun).ms) && (r as EtaRun).ms > 0 && Number.isFinite((r as EtaRun).days))
        .slice(-ETA.historySize);
    }
    return history;
  } catch {
    return {};
  }
}

/** Adds a finished run; keeps the last 15 of its key. */
export function recordEtaRun(storage: KeyValueStorage, key: string, run: EtaRun): EtaHistory {
  const history = readEtaHistory(storage);
  const runs = [...(history[key] ?? []), { ms: Math.round(run.ms), days: Math.max(1, Math.round(run.days)) }].slice(-ETA.historySize);
  history[key] = runs;
  try {
    storage.setItem(ETA_STORAGE_KEY, JSON.stringify(history));
  } catch {
    // Storage full or refused: the next estimate falls back to the default.
  }
  return history;
}

export function defaultEtaMs(days: number): number {
  return clamp(ETA.defaultBaseMs + ETA.defaultPerDayMs * Math.max(0, days), ETA.defaultMinMs, ETA.defaultMaxMs);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function estimateEtaMs(runs: readonly EtaRun[] | undefined, days: number): number {
  const usable = (runs ?? []).filter((r) => r.ms > 0 && r.days > 0);
  if (usable.length === 0) return defaultEtaMs(days);
  const perDay = median(usable.map((r) => r.ms / r.days));
  return clamp(perDay * Math.max(1, days), ETA.clampMinMs, ETA.clampMaxMs);
}

/** Percent shown while waiting (never 100 before the answer). */
export function progressPercent(elapsedMs: number, etaMs: number): number {
  if (elapsedMs <= 0) return 0;
  if (elapsedMs >= etaMs * ETA.overrunFactor) return ETA.secondCap;
  return Math.min(ETA.firstCap, (100 * elapsedMs) / etaMs);
}

/** Seconds left, rounded up; 0 once the estimate has passed. */
export function secondsLeft(elapsedMs: number, etaMs: number): number {
  return Math.max(0, Math.ceil((etaMs - elapsedMs) / 1000));
}

export function etaText(elapsedMs: number, etaMs: number): string {
  const left = secondsLeft(elapsedMs, etaMs);
  return left > 0 ? `≈ ${left} s restantes` : 'Presque terminé…';
}
