/** How stops and targets are placed (docs/architecture.md §2 "Exits"). */
export interface ExitRules {
  readonly slMode: 'external' | 'internal';
  /** External mode: stop distance in pips (required). Ignored in internal mode. */
  readonly slPips?: number;
  /** Target distances in pips. External: tp1 required; tp2 defaults to 2 x tp1. Internal: 1R and 2R unless given. */
  readonly tp1Pips?: number;
  readonly tp2Pips?: number;
  readonly pipSize: number;
}

export interface Levels {
  sl: number;
  tp1: number;
  tp2: number;
}

/**
 * The pip sizes bt runs: levels are rounded to 1/10,000 of a pip (priceRounding), so a pip above
 * 10,000 rounds that scale to 0 (every level NaN, every trade open) and one far below a billionth
 * makes it Infinity (every trade a loss); prices show at most 10 decimals (format/french.ts).
 */
export const PIP_SIZE_MIN = 1e-9;
export const PIP_SIZE_MAX = 10_000;

/**
 * Levels and resting prices are rounded to 1/10,000 of a pip, so `1.1 - 10 pips` is 1.099 and not
 * 1.0990000000000002 and levels are judged exactly as shown. Returns the scale to multiply by.
 */
export function priceRounding(pipSize: number): number {
  return Math.round(1 / (pipSize * 1e-4));
}

/**
 * `Math.round(x * scale) / scale`, with V8's own steps for `Math.round` (the ceiling, less 1 when
 * it is more than half above) but the correction taken as `+(c - 0.5 > y)` instead of a branch:
 * levels sit within a rounding error of a whole multiple of 1/scale, so that branch was a coin
 * flip per level (docs/engine.md §11). Same value for every double, sign of zero included.
 */
export function roundPrice(x: number, scale: number): number {
  const y = x * scale;
  const c = Math.ceil(y);
  return (c - +(c - 0.5 > y)) / scale;
}

/** Checks the exit rules once per run; throws `invalid <field>: <value>`. */
export function validateExitRules(rules: ExitRules): void {
  const positive = (name: string, v: number | undefined, required: boolean) => {
    if (v === undefined) {
      if (required) throw new Error(`invalid ${name}: missing (required with sl_mode=${rules.slMode})`);
      return;
    }
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw new Error(`invalid ${name}: ${String(v)}`);
  };
  if (rules.slMode !== 'external' && rules.slMode !== 'internal') throw new Error(`invalid sl_mode: ${String(rules.slMode)}`);
  if (!(rules.pipSize >= PIP_SIZE_MIN && rules.pipSize <= PIP_SIZE_MAX)) throw new Error(`invalid pip_size: ${String(rules.pipSize)}`);
  positive('sl_pips', rules.slPips, rules.slMode === 'external');
  positive('tp1_pips', rules.tp1Pips, rules.slMode === 'external');
  positive('tp2_pips', rules.tp2Pips, false);
}

/**
 * Levels for an order at `price` on side `dir` (+1 buy, -1 sell); `stop` is the setup's internal
 * stop (zone far edge or pattern extreme). Returns null when the internal risk is not positive
 * (the order price is at or beyond the stop): such a trade has no defined R and is skipped.
 */
export function placeLevels(rules: ExitRules, dir: number, price: number, stop: number, out: Levels, scale = priceRounding(rules.pipSize)): Levels | null {
  const pip = rules.pipSize;
  if (rules.slMode === 'external') {
    const tp1Pips = rules.tp1Pips!;
    out.sl = roundPrice(price - dir * rules.slPips! * pip, scale);
    out.tp1 = roundPrice(price + dir * tp1Pips * pip, scale);
    out.tp2 = roundPrice(price + dir * (rules.tp2Pips ?? 2 * tp1Pips) * pip, scale);
    return out;
  }
  const risk = dir * (price - stop);
  if (!(risk > 0)) return null;
  out.sl = stop;
  out.tp1 = roundPrice(price + dir * (rules.tp1Pips !== undefined ? rules.tp1Pips * pip : risk), scale);
  out.tp2 = roundPrice(price + dir * (rules.tp2Pips !== undefined ? rules.tp2Pips * pip : 2 * risk), scale);
  return out;
}
