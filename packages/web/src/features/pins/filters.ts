/**
 * The wall's filters and sorts (docs/product.md §2.2 "Pins wall", §2.9): Métrique, Type, Période; Heure,
 * Session or Jour when the type is per-hour, sessions or day-of-week; advanced Paire, Stratégie,
 * Tri and a free-text search. ALL ('') means no filter on that field.
 */
import { hourLabel, shiftHour } from '@bt/core/format';
import { bucketLabel, folderFacts, folderView, isWinrateMetric, metricLabel, PIN_TYPE_LABELS, type Pin } from './pin.js';

export const PIN_SORTS = [
  { id: 'winrate', label: 'Winrate' },
  { id: 'value-desc', label: 'Valeur ↓' },
  { id: 'value-asc', label: 'Valeur ↑' },
  { id: 'key-az', label: 'Clé A-Z' },
] as const;
export type PinSort = (typeof PIN_SORTS)[number]['id'];

export interface PinFilters {
  metric: string;
  type: string;
  period: string;
  /** Only read when type is per-hour / sessions / day-of-week. */
  hour: string;
  session: string;
  day: string;
  pair: string;
  strategy: string;
  search: string;
  sort: PinSort;
}

export const NO_PIN_FILTERS: PinFilters = { metric: '', type: '', period: '', hour: '', session: '', day: '', pair: '', strategy: '', search: '', sort: 'winrate' };

/** Which bucket filter the chosen type shows (docs/product.md §2.2), and which filter field it sets. */
export function bucketFilterOf(type: string): { field: 'hour' | 'session' | 'day'; label: 'Heure' | 'Session' | 'Jour' } | null {
  if (type === 'per-hour') return { field: 'hour', label: 'Heure' };
  if (type === 'sessions') return { field: 'session', label: 'Session' };
  if (type === 'day-of-week') return { field: 'day', label: 'Jour' };
  return null;
}

/** The hour a per-hour pin shows ('15h', in the zone it was pinned in). */
export function pinHour(pin: Pin): string {
  const hourUtc = Number.parseInt(pin.bucket ?? '', 10);
  return Number.isInteger(hourUtc) ? hourLabel(shiftHour(hourUtc, pin.tz ?? 0)) : (pin.bucket ?? '');
}

const DAY_ORDER = ['Lun', 'Mar', 'Mer', 'Jeu', 'Ven', 'Sam', 'Dim'];
const SESSION_ORDER = ['Asie', 'Londres', 'Londres/New York', 'New York', 'Hors session'];

function ordered(values: Iterable<string>, order?: readonly string[]): string[] {
  const list = [...new Set(values)].filter(Boolean);
  return list.sort((a, b) => {
    if (order) {
      const ia = order.indexOf(a);
      const ib = order.indexOf(b);
      if (ia !== ib) return (ia < 0 ? order.length : ia) - (ib < 0 ? order.length : ib);
    }
    return a.localeCompare(b, 'fr');
  });
}

export interface PinFilterOptions {
  metrics: string[];
  types: { id: string; label: string }[];
  periods: string[];
  hours: string[];
  sessions: string[];
  days: string[];
  pairs: string[];
  strategies: string[];
}

/** Choices offered by each filter: the values present among the pins. */
export function pinFilterOptions(pins: readonly Pin[]): PinFilterOptions {
  const facts = pins.map((pin) => folderFacts(pin.folder));
  const types = ordered(pins.map((p) => String(p.type)), Object.keys(PIN_TYPE_LABELS));
  return {
    metrics: ordered(pins.map(metricLabel)),
    types: types.map((id) => ({ id, label: PIN_TYPE_LABELS[id] ?? id })),
    periods: ordered(facts.map((f) => f.period)),
    hours: ordered(pins.filter((p) => p.type === 'per-hour').map(pinHour)),
    sessions: ordered(pins.filter((p) => p.type === 'sessions').map((p) => p.bucket ?? ''), SESSION_ORDER),
    days: ordered(pins.filter((p) => p.type === 'day-of-week').map((p) => p.bucket ?? ''), DAY_ORDER),
    pairs: ordered(facts.map((f) => f.pair)),
    strategies: ordered(facts.map((f) => f.strategy)),
  };
}

function fold(value: string): string {
  return value.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

/** Everything the free-text search looks in. */
export function pinSearchText(pin: Pin): string {
  const facts = folderFacts(pin.folder);
  const view = folderView(pin.folder);
  return fold([pin.folder, facts.pair, facts.timeframe, facts.strategy, facts.period, view.strategy, view.period, pin.key, pin.keyDisplay ?? '', bucketLabel(pin), PIN_TYPE_LABELS[pin.type] ?? pin.type].join(' '));
}

export function filterPins(pins: readonly Pin[], filters: PinFilters): Pin[] {
  const words = fold(filters.search).split(/\s+/).filter(Boolean);
  const bucket = bucketFilterOf(filters.type);
  return pins.filter((pin) => {
    const facts = folderFacts(pin.folder);
    if (filters.metric && metricLabel(pin) !== filters.metric) return false;
    if (filters.type && pin.type !== filters.type) return false;
    if (filters.period && facts.period !== filters.period) return false;
    if (bucket?.field === 'hour' && filters.hour && pinHour(pin) !== filters.hour) return false;
    if (bucket?.field === 'session' && filters.session && pin.bucket !== filters.session) return false;
    if (bucket?.field === 'day' && filters.day && pin.bucket !== filters.day) return false;
    if (filters.pair && facts.pair !== filters.pair) return false;
    if (filters.strategy && facts.strategy !== filters.strategy) return false;
    if (words.length) {
      const haystack = pinSearchText(pin);
      if (!words.every((word) => haystack.includes(word))) return false;
    }
    return true;
  });
}

/**
 * Sorts (docs/product.md §2.9): 'winrate' puts win-rate pins first, best first, then the others newest
 * first; value ascending/descending; metric A-Z (then bucket). Ties keep the newest first.
 */
export function sortPins(pins: readonly Pin[], sort: PinSort): Pin[] {
  const recent = (a: Pin, b: Pin) => b.pinnedAt - a.pinnedAt;
  const list = [...pins];
  switch (sort) {
    case 'winrate':
      return list.sort((a, b) => {
        const wa = isWinrateMetric(a.key);
        const wb = isWinrateMetric(b.key);
        if (wa !== wb) return wa ? -1 : 1;
        return (wa ? b.value - a.value : 0) || recent(a, b);
      });
    case 'value-desc':
      return list.sort((a, b) => b.value - a.value || recent(a, b));
    case 'value-asc':
      return list.sort((a, b) => a.value - b.value || recent(a, b));
    case 'key-az':
      return list.sort((a, b) => metricLabel(a).localeCompare(metricLabel(b), 'fr') || bucketLabel(a).localeCompare(bucketLabel(b), 'fr', { numeric: true }) || recent(a, b));
  }
}

export function visiblePins(pins: readonly Pin[], filters: PinFilters): Pin[] {
  return sortPins(filterPins(pins, filters), filters.sort);
}
