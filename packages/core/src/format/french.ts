/**
 * Numbers, prices and dates as a French reader expects them (docs/report.md, "Display rules"):
 * `57,14 %`, `1 004`, `1,07219`, `1er–31 mars 2023`. Built on Intl (fr-FR), so the browser and the
 * server print the same text: a narrow no-break space (U+202F) groups thousands and precedes `%`.
 * Dates are UTC calendar days, as the product's periods are. Missing values print as an em dash.
 */

export const MISSING = '—';

const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(min: number, max: number): Intl.NumberFormat {
  const key = `${min}:${max}`;
  let format = numberFormats.get(key);
  if (!format) {
    // signDisplay 'negative': a value that rounds to zero never reads -0,00.
    format = new Intl.NumberFormat('fr-FR', { minimumFractionDigits: min, maximumFractionDigits: max, signDisplay: 'negative' });
    numberFormats.set(key, format);
  }
  return format;
}

const usable = (value: number | null | undefined): value is number => typeof value === 'number' && Number.isFinite(value);

/** A number with exactly `decimals` decimals: `1 004,50`, `-0,25`. */
export function formatNumberFr(value: number | null | undefined, decimals = 2): string {
  return usable(value) ? numberFormat(decimals, decimals).format(value) : MISSING;
}

/** A number with at most `maxDecimals` decimals, none shown when they are zero: `3`, `2,5`. */
export function formatCompactFr(value: number | null | undefined, maxDecimals = 6): string {
  return usable(value) ? numberFormat(0, maxDecimals).format(value) : MISSING;
}

/** A whole count: `1 004`. */
export function formatIntegerFr(value: number | null | undefined): string {
  return usable(value) ? numberFormat(0, 0).format(Math.round(value)) : MISSING;
}

/** A fraction 0..1 as a percentage: `0.5714` → `57,14 %`. */
export function formatPercentFr(fraction: number | null | undefined, decimals = 2): string {
  return usable(fraction) ? `${numberFormat(decimals, decimals).format(fraction * 100)}\u202f%` : MISSING;
}

/** An R multiple with its sign: `+3,00 R`, `-1,00 R`. */
export function formatRFr(value: number | null | undefined, decimals = 2): string {
  if (!usable(value)) return MISSING;
  const text = numberFormat(decimals, decimals).format(Math.abs(value));
  return `${value > 0 ? '+' : value < 0 ? '-' : ''}${text}\u202fR`;
}

/**
 * Decimals a price is written with: one more than the pip (0.0001 → 5, 0.01 → 3, 1 → 1), the
 * workbook's rule (its `0.00000` price format), at most 10.
 */
export function priceDecimals(pipSize: number): number {
  // A pip size that is no size (0, negative, NaN: a hand-edited Config row) shows every decimal
  // bt writes, instead of NaN decimals, which Intl refuses with a RangeError.
  if (!(pipSize > 0)) return 10;
  return Math.min(10, Math.max(0, Math.ceil(-Math.log10(pipSize) - 1e-9)) + 1);
}

/** A price with the instrument's decimals: `1,07219` (EURUSD), `4 476,9` (US500). */
export function formatPriceFr(price: number | null | undefined, pipSize: number): string {
  return formatNumberFr(price, priceDecimals(pipSize));
}

const dayFormat = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const dayMonthFormat = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'long', timeZone: 'UTC' });

/**
 * The parts of a date joined, the first of a month written `1er` (premier) as French writes it:
 * Intl's fr-FR says `1 mars`, a reader expects `1er mars` (docs/report.md, "Display rules").
 */
function withFirstOfMonth(parts: readonly Intl.DateTimeFormatPart[]): string {
  return parts.map((part) => (part.type === 'day' && part.value === '1' ? '1er' : part.value)).join('');
}
const shortDayFormat = new Intl.DateTimeFormat('fr-FR', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' });
const timeFormat = new Intl.DateTimeFormat('fr-FR', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' });

/** An instant a Date holds (Intl throws a RangeError on any other: NaN, Infinity, past ±8.64e15 ms). */
const instant = (ms: number) => typeof ms === 'number' && Math.abs(ms) <= 8.64e15;

/** A UTC calendar day: `1er mars 2023`, `2 mars 2023`. */
export function formatDayFr(ms: number): string {
  return instant(ms) ? withFirstOfMonth(dayFormat.formatToParts(ms)) : MISSING;
}

/** A UTC calendar day without its year: `1er avril`, `28 avril`. */
export function formatDayMonthFr(ms: number): string {
  return instant(ms) ? withFirstOfMonth(dayMonthFormat.formatToParts(ms)) : MISSING;
}

/** A period of UTC days, as short as it reads well: `1er–31 mars 2023`, `28 février – 3 mars 2023`. */
export function formatPeriodFr(fromMs: number, toMs: number): string {
  if (!instant(fromMs) || !instant(toMs)) return `${formatDayFr(fromMs)} – ${formatDayFr(toMs)}`;
  return withFirstOfMonth(dayFormat.formatRangeToParts(Math.min(fromMs, toMs), Math.max(fromMs, toMs)));
}

/** Runs of available data: `du 1er mars 2022 au 11 septembre 2023`, several joined by `, puis `. */
export function rangesTextFr(ranges: readonly { readonly first: number; readonly last: number }[]): string {
  return ranges.map((r) => `du ${formatDayFr(r.first)} au ${formatDayFr(r.last)}`).join(', puis ');
}

/** A UTC instant to the minute: `01/03/2023 14:00`. */
export function formatDateTimeFr(ms: number): string {
  return instant(ms) ? `${shortDayFormat.format(ms)} ${timeFormat.format(ms)}` : MISSING;
}

/** `YYYY-MM-DD` (a UTC calendar day) to its instant, or null when it is not one. */
export function dayToMs(day: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === day ? ms : null;
}
