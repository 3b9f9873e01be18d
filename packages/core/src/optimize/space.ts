// The parameter space of an optimisation (docs/engine.md §14): values per strategy parameter and
// per exit, as a mixed-radix grid whose dimensions are ordered by the stage of the engine they
// feed (detection, then entries and filters, then exits), so that consecutive combinations share
// setups and entries.
import { getStrategy } from '../catalogue/strategies.js';
import { seededRandom } from '../candles/random.js';
import { normalizeParams } from '../params/normalize.js';

export interface SearchSpace {
  /** Strategy parameters: name (aliases accepted) → the values tried. */
  readonly params?: Readonly<Record<string, readonly unknown[]>>;
  /** Stops and targets in pips tried (external stops need sl and tp1; internal stops take no sl). */
  readonly slPips?: readonly number[];
  readonly tp1Pips?: readonly number[];
  readonly tp2Pips?: readonly number[];
}

/** Every combination of the grid, or `count` of them drawn at random (without repetition, seeded). */
export type Search = { readonly kind: 'grid' } | { readonly kind: 'random'; readonly count: number; readonly seed?: number };

export type Stage = 'detection' | 'entries' | 'exits';

export interface Dimension {
  /** Canonical parameter name, or sl_pips / tp1_pips / tp2_pips. */
  readonly name: string;
  readonly stage: Stage;
  readonly values: readonly unknown[];
}

/** One point of the space: its index in the grid, the strategy parameters it sets and its exits. */
export interface Combination {
  readonly index: number;
  readonly params: Readonly<Record<string, unknown>>;
  readonly slPips?: number;
  readonly tp1Pips?: number;
  readonly tp2Pips?: number;
}

/** Most combinations one optimisation evaluates (a grid larger than this needs a random search). */
export const MAX_EVALUATED = 200_000;
/** Most values per dimension. */
export const MAX_VALUES = 1_000;

const DETECTION = new Set(['min_pips', 'ob_side', 'confirm_candle']);
const EXIT_DIMENSIONS = [['slPips', 'sl_pips'], ['tp1Pips', 'tp1_pips'], ['tp2Pips', 'tp2_pips']] as const;
const STAGE_ORDER: Readonly<Record<Stage, number>> = { detection: 0, entries: 1, exits: 2 };

export class ParameterSpace {
  readonly dimensions: readonly Dimension[];
  /** Combinations in the grid (a double: a random search may span more than 2^32). */
  readonly size: number;
  private readonly radix: readonly number[];

  constructor(strategy: string, space: SearchSpace, slMode: 'external' | 'internal') {
    const key = getStrategy(strategy).key;
    const dims: Dimension[] = [];
    const seen = new Map<string, string>();
    for (const [given, values] of Object.entries(space.params ?? {})) {
      if (!Array.isArray(values) || values.length === 0) throw new Error(`invalid space: params.${given}: expected a non-empty list of values`);
      if (values.length > MAX_VALUES) throw new Error(`invalid space: params.${given}: ${values.length} values (at most ${MAX_VALUES})`);
      // Each value alone through the catalogue's rules: a typo or a bad value fails here, named.
      const canonical = values.map((v) => {
        const { params } = normalizeParams({ [given]: v }, { strategy: key, defaults: false, relations: false });
        const names = Object.keys(params);
        return { name: names[0] ?? given, value: names.length ? params[names[0]] : undefined };
      });
      const name = canonical[0].name;
      if (seen.has(name)) throw new Error(`invalid space: params.${given}: the same parameter as params.${seen.get(name)}`);
      seen.set(name, given);
      const distinct = [...new Map(canonical.map((c) => [JSON.stringify(c.value ?? null), c.value])).values()];
      dims.push({ name, stage: DETECTION.has(name) ? 'detection' : 'entries', values: distinct });
    }
    for (const [field, name] of EXIT_DIMENSIONS) {
      const values = space[field];
      if (values === undefined) continue;
      if (!Array.isArray(values) || values.length === 0) throw new Error(`invalid space: ${name}: expected a non-empty list of pips`);
      if (values.length > MAX_VALUES) throw new Error(`invalid space: ${name}: ${values.length} values (at most ${MAX_VALUES})`);
      for (const v of values) {
        if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw new Error(`invalid space: ${name}: ${JSON.stringify(v)} (expected a number of pips > 0)`);
      }
      if (name === 'sl_pips' && slMode === 'internal') throw new Error('invalid space: sl_pips: internal stops sit at the zone edge (sl_mode=internal): no stop distance to vary');
      dims.push({ name, stage: 'exits', values: [...new Set(values)] });
    }
    // Stable by stage: detection varies slowest, exits fastest.
    dims.sort((a, b) => STAGE_ORDER[a.stage] - STAGE_ORDER[b.stage]);
    this.dimensions = dims;
    this.radix = dims.map((d) => d.values.length);
    this.size = this.radix.reduce((a, b) => a * b, 1);
  }

  /**
   * Consecutive combinations that share detection and entries (the product of the exit
   * dimensions): the optimiser judges them together on one exit grid (exit-grid.ts).
   */
  get exitBlock(): number {
    return this.dimensions.reduce((a, d) => (d.stage === 'exits' ? a * d.values.length : a), 1);
  }

  /** The combination at `index` (mixed radix, the last dimension fastest). */
  combination(index: number): Combination {
    if (!Number.isInteger(index) || index < 0 || index >= this.size) throw new Error(`invalid combination index: ${index} (the space has ${this.size})`);
    const params: Record<string, unknown> = {};
    const exits: Record<string, number> = {};
    let rest = index;
    for (let d = this.dimensions.length - 1; d >= 0; d--) {
      const dim = this.dimensions[d];
      const n = this.radix[d];
      const value = dim.values[rest % n];
      rest = Math.floor(rest / n);
      if (dim.stage === 'exits') exits[dim.name === 'sl_pips' ? 'slPips' : dim.name === 'tp1_pips' ? 'tp1Pips' : 'tp2Pips'] = value as number;
      else params[dim.name] = value;
    }
    const ordered: Record<string, unknown> = {};
    for (const dim of this.dimensions) if (dim.stage !== 'exits') ordered[dim.name] = params[dim.name];
    return { index, params: ordered, ...exits };
  }

  /** Indices to evaluate, ascending (so shared stages stay adjacent). */
  indices(search: Search = { kind: 'grid' }): number[] {
    if (search.kind === 'grid') {
      if (this.size > MAX_EVALUATED) throw new Error(`invalid space: ${this.size.toLocaleString('en-US')} combinations (at most ${MAX_EVALUATED.toLocaleString('en-US')} in a grid: use a random search of fewer)`);
      return Array.from({ length: this.size }, (_, i) => i);
    }
    if (search.kind !== 'random') throw new Error(`invalid search: ${JSON.stringify((search as { kind: unknown }).kind)} (expected grid or random)`);
    const { count } = search;
    if (!Number.isInteger(count) || count < 1 || count > MAX_EVALUATED) throw new Error(`invalid search: random count ${count} (expected a whole number from 1 to ${MAX_EVALUATED.toLocaleString('en-US')})`);
    const seed = search.seed ?? 1;
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new Error(`invalid search: seed ${seed} (expected an unsigned 32-bit integer)`);
    if (count >= this.size) return Array.from({ length: this.size }, (_, i) => i);
    // Past 2^53 an index is no longer a whole number a double holds: Floyd's `j++` below stopped
    // moving (a hang) or the loop was skipped (no combination), and combination() was inexact.
    if (this.size > Number.MAX_SAFE_INTEGER) throw new Error(`invalid space: ${this.size.toLocaleString('en-US')} combinations (at most ${Number.MAX_SAFE_INTEGER.toLocaleString('en-US')} for a random search: give fewer values)`);
    // Floyd's sampling: `count` distinct indices, each subset equally likely, in O(count).
    const rand = seededRandom(seed);
    const chosen = new Set<number>();
    for (let j = this.size - count; j < this.size; j++) {
      const t = Math.floor(rand() * (j + 1));
      chosen.add(chosen.has(t) ? j : t);
    }
    return [...chosen].sort((a, b) => a - b);
  }
}
