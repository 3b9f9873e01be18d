import { ParamError } from './errors.js';
import { parseNumberText, roundDecimal } from './numbers.js';

/**
 * min_overlap_ratio: how deep into a zone the price must come back before a pullback order fills,
 * as a fraction of the zone's height in (0, 1] (docs/architecture.md §2). Unset means entry on touch. The web
 * form asks for a percent from 0.1 to 100 (docs/product.md §2.5) and sends the fraction.
 */
export const OVERLAP_PERCENT_MIN = 0.1;
export const OVERLAP_PERCENT_MAX = 100;
/** Preset buttons of the form (docs/product.md §2.5). */
export const OVERLAP_PERCENT_PRESETS = [10, 25, 50] as const;

const PERCENT_EXPECTED = `a percent from ${OVERLAP_PERCENT_MIN} to ${OVERLAP_PERCENT_MAX}`;
const RATIO_EXPECTED = 'a fraction in (0, 1] such as 0.25, or a percent such as "25%"; leave it empty for an entry on touch';

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * The text without its trailing `%` and the spaces before it. Not `replace(/\s*%$/, '')`: that
 * expression tried every space of a run as a start, so a long run of spaces inside the value took
 * quadratic time (60,000 spaces, 9 s).
 */
function withoutPercentSign(text: string): string {
  const t = text.trim();
  return t.endsWith('%') ? t.slice(0, -1).trimEnd() : t;
}

/**
 * The form's percent (number or text, decimal comma and a trailing % accepted) as the engine's
 * fraction: 25 → 0.25. Empty means touch and gives undefined; outside 0.1..100 is an error.
 */
export function overlapPercentToFraction(percent: number | string | null | undefined): number | undefined {
  if (isEmpty(percent)) return undefined;
  const value = typeof percent === 'number' ? percent : parseNumberText(withoutPercentSign(String(percent)));
  if (value === undefined || !Number.isFinite(value) || value < OVERLAP_PERCENT_MIN || value > OVERLAP_PERCENT_MAX) {
    throw new ParamError('min_overlap_ratio', percent, PERCENT_EXPECTED);
  }
  return roundDecimal(value / 100);
}

/** The fraction as the form shows it: 0.25 → 25; undefined (touch) stays undefined. */
export function overlapFractionToPercent(fraction: number | undefined): number | undefined {
  return fraction === undefined ? undefined : roundDecimal(fraction * 100);
}

/**
 * The parameter's value as the engine takes it. Accepts a fraction 0 < x ≤ 1 (number or text) or a
 * percent text such as "25%"; empty gives undefined (touch). Anything else is an error, including a
 * bare 25, which could mean 25 % or 2500 %.
 */
export function parseOverlapRatio(value: unknown): number | undefined {
  if (isEmpty(value)) return undefined;
  if (typeof value === 'string' && value.trim().endsWith('%')) {
    const percent = parseNumberText(withoutPercentSign(value));
    if (percent === undefined || percent < OVERLAP_PERCENT_MIN || percent > OVERLAP_PERCENT_MAX) {
      throw new ParamError('min_overlap_ratio', value, PERCENT_EXPECTED);
    }
    return roundDecimal(percent / 100);
  }
  const fraction = typeof value === 'number' ? value : typeof value === 'string' ? parseNumberText(value) : undefined;
  if (fraction === undefined || !Number.isFinite(fraction) || fraction <= 0 || fraction > 1) {
    throw new ParamError('min_overlap_ratio', value, RATIO_EXPECTED);
  }
  return fraction;
}
