/**
 * A pin (docs/product.md §2.3 "Pin"): one figure of a result workbook kept on the user's wall — its result
 * folder, the sheet it comes from (type), the metric (key), the bucket (hour, session or day) and
 * the value. Stored in the browser only (btPins_v1), so everything here is tolerant of entries
 * written by older versions or by hand.
 */
import { hourLabel, parseResultFolderName, shiftHour, utcOffsetLabel } from '@bt/core/format';
import { strategyLabel } from '../../lib/catalogue.js';
import { periodLabel } from '../../lib/format.js';

export const PIN_TYPES = ['global', 'tp2-global', 'sessions', 'per-hour', 'day-of-week'] as const;
export type PinType = (typeof PIN_TYPES)[number] | (string & {});

/** French labels of the Type filter; the sheet each type comes from (Détails opens it). */
export const PIN_TYPE_LABELS: Record<string, string> = {
  global: 'Résumé global',
  'tp2-global': 'TP2 global',
  sessions: 'Par session',
  'per-hour': 'Par heure',
  'day-of-week': 'Par jour',
};

export const SHEET_OF_TYPE: Record<string, string> = {
  global: 'Global',
  'tp2-global': 'TP2_Global',
  sessions: 'Sessions',
  'per-hour': 'Par_Heure',
  'day-of-week': 'Jour_Semaine',
};

export function typeOfSheet(sheet: string): PinType | null {
  for (const [type, name] of Object.entries(SHEET_OF_TYPE)) if (name === sheet) return type;
  return null;
}

export interface Pin {
  /** Dedupe identity: folder, type, bucket and metric. */
  id: string;
  folder: string;
  type: PinType;
  /** Metric name as the workbook spells it ('Winrate TP1'). */
  key: string;
  /** The metric as the wall shows it, when it differs from key. */
  keyDisplay?: string;
  /** Session name ('Londres'), day ('Lun') or UTC hour ('14') for per-hour pins; null for global sheets. */
  bucket: string | null;
  value: number;
  /** Per-hour pins: offset (hours) of the zone the hour was seen in, shown as UTC+n. */
  tz?: number;
  /** ms since 1970, when pinned. */
  pinnedAt: number;
}

export type NewPin = Omit<Pin, 'id' | 'pinnedAt'> & { pinnedAt?: number };

export function pinId(pin: Pick<Pin, 'folder' | 'type' | 'bucket' | 'key'>): string {
  return [pin.folder, pin.type, pin.bucket ?? '', pin.key].join('|');
}

function text(value: unknown): string | null {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

function number(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value.replace(',', '.')) : Number.NaN;
  return Number.isFinite(n) ? n : null;
}

/** One stored entry, or null when it lacks a folder, a type, a metric or a numeric value. */
export function parsePin(entry: unknown): Pin | null {
  if (!entry || typeof entry !== 'object') return null;
  const record = entry as Record<string, unknown>;
  const folder = text(record.folder);
  const type = text(record.type);
  const key = text(record.key) ?? text(record.keyDisplay);
  const value = number(record.value);
  if (!folder || !type || !key || value === null) return null;
  const bucket = text(record.bucket) ?? (type === 'per-hour' && text(record.hour) ? text(record.hour) : null);
  const tz = number(record.tz);
  const pinnedAt = number(record.pinnedAt) ?? 0;
  const pin: Pin = { id: '', folder, type, key, bucket, value, pinnedAt };
  const keyDisplay = text(record.keyDisplay);
  if (keyDisplay && keyDisplay !== key) pin.keyDisplay = keyDisplay;
  if (type === 'per-hour' && tz !== null) pin.tz = tz;
  pin.id = pinId(pin);
  return pin;
}

export interface FolderFacts {
  pair: string;
  timeframe: string;
  strategy: string;
  /** '2023-01-01 → 2023-01-31', or '' when the folder name does not say. */
  period: string;
}

/** Pair, timeframe, strategy and period read from the folder name (core's tolerant parser). */
export function folderFacts(folder: string): FolderFacts {
  try {
    const parsed = parseResultFolderName(folder);
    return { pair: parsed.symbol, timeframe: parsed.timeframe, strategy: parsed.strategy, period: `${parsed.from} → ${parsed.to}` };
  } catch {
    const words = folder.split('_');
    return { pair: (words[0] ?? '').toUpperCase(), timeframe: (words[1] ?? '').toUpperCase(), strategy: words.slice(2).join('_'), period: '' };
  }
}

/**
 * The folder's facts as the wall shows them: the strategy's catalogue label ('OB pullback pur', a
 * personal strategy's id as it is) and the period in French ('2–31 janvier 2023'), as the
 * dashboard's cards write them. The filters keep the raw values as their ids.
 */
export function folderView(folder: string): FolderFacts {
  const facts = folderFacts(folder);
  return { ...facts, strategy: facts.strategy ? strategyLabel(facts.strategy) : '', period: facts.period ? periodLabel(facts.period) : '' };
}

/** The results overlay's title for a pin: 'Résultats · EURUSD · M15 · OB pullback pur', as the dashboard's cards title it. */
export function pinResultsTitle(folder: string): string {
  const view = folderView(folder);
  const parts = [view.pair, view.timeframe, view.strategy].filter(Boolean);
  return `Résultats · ${view.period ? parts.join(' · ') : folder}`;
}

/** The bucket as the wall shows it: a per-hour pin in the zone it was pinned in ('15h (UTC+1)'). */
export function bucketLabel(pin: Pick<Pin, 'type' | 'bucket' | 'tz'>): string {
  if (pin.bucket === null) return '';
  if (pin.type === 'per-hour') {
    const hourUtc = Number.parseInt(pin.bucket, 10);
    if (!Number.isInteger(hourUtc)) return pin.bucket;
    const tz = pin.tz ?? 0;
    return `${hourLabel(shiftHour(hourUtc, tz))} (${utcOffsetLabel(tz)})`;
  }
  return pin.bucket;
}

export function metricLabel(pin: Pick<Pin, 'key' | 'keyDisplay'>): string {
  return pin.keyDisplay ?? pin.key;
}

export function isWinrateMetric(key: string): boolean {
  return /win\s*rate|winrate/i.test(key);
}
