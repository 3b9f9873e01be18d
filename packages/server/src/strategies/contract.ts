import { candlesFromColumns, seededRandom, type Candles } from '@bt/core/candles';
import { findParam, isStrategyKey, type FilterKind, type StrategyParams } from '@bt/core/catalogue';
import { rsi } from '@bt/core/indicators';
import { ParamError, coerceBool, coerceFloat, coerceInt, coerceString, isEmptyValue, normalizeParams, type ParamWarning } from '@bt/core/params';
import type { SignalStrategy, StrategySignal } from '@bt/core/strategies';
import { badRequest } from '../app/errors.js';
import type { StrategyInfo } from './sandbox/sandbox.js';

/**
 * The `detect_<id>` contract (docs/strategies-python.md): what a .py file declares and how the
 * engine runs it. The file's function computes signals; the engine (core's signal-strategy
 * interface) does filters, entries, exits, statistics and the workbook.
 */

export type UserParamValue = number | boolean | string;

export interface StrategyShape {
  detectName: string;
  detectId: string;
  /** Folder-safe key of its results (the detect id, prefixed when it would read as an official key). */
  key: string;
  entryMode: 'signal' | 'pullback';
  filters: FilterKind[];
  /** Its own parameters and their defaults (PARAMS), in file order. */
  params: Record<string, UserParamValue>;
  description: string;
  name: string;
}

export const FILTER_KINDS: readonly FilterKind[] = ['rsi', 'ema_simple', 'tendance_ema'];
const FILTER_PARAMS: Readonly<Record<FilterKind, readonly string[]>> = {
  rsi: ['rsi_key', 'rsi_threshold'],
  ema_simple: ['ema_key'],
  tendance_ema: ['ema_fast', 'ema_slow'],
};
/** Engine parameters every user strategy accepts, by entry mode (the pullback rules need a zone). */
const ENGINE_PARAMS: Readonly<Record<'signal' | 'pullback', readonly string[]>> = {
  signal: ['confirm_candle'],
  pullback: ['min_wait_candles', 'max_wait_candles', 'allow_multiple_entries', 'min_overlap_ratio', 'max_touch', 'confirm_candle'],
};
const PARAM_NAME = /^[a-z][a-z0-9_]{0,39}$/;
const MAX_PARAMS = 30;

/** The shape declared by the file's module-level constants (read statically, never executed). */
export function shapeFromInfo(info: StrategyInfo): StrategyShape {
  const { PARAMS, ENTRY_MODE, FILTERS, DESCRIPTION, NAME } = info.meta;
  const params: Record<string, UserParamValue> = {};
  if (PARAMS !== undefined) {
    if (!PARAMS || typeof PARAMS !== 'object' || Array.isArray(PARAMS)) throw badRequest('PARAMS doit être un dictionnaire { "nom": valeur par défaut }.');
    const entries = Object.entries(PARAMS as Record<string, unknown>);
    if (entries.length > MAX_PARAMS) throw badRequest(`PARAMS : ${MAX_PARAMS} paramètres au maximum.`);
    for (const [name, value] of entries) {
      if (!PARAM_NAME.test(name)) throw badRequest(`PARAMS : nom de paramètre invalide « ${name} » (minuscules, chiffres et _, 40 caractères au plus).`);
      if (!(typeof value === 'number' && Number.isFinite(value)) && typeof value !== 'boolean' && !(typeof value === 'string' && value.length <= 100)) {
        throw badRequest(`PARAMS : la valeur par défaut de « ${name} » doit être un nombre, un booléen ou un texte court.`);
      }
      params[name] = value as UserParamValue;
    }
  }
  const entryMode = ENTRY_MODE === undefined ? 'signal' : ENTRY_MODE;
  if (entryMode !== 'signal' && entryMode !== 'pullback') throw badRequest('ENTRY_MODE doit valoir "signal" ou "pullback".');
  const filters: FilterKind[] = [];
  if (FILTERS !== undefined) {
    if (!Array.isArray(FILTERS)) throw badRequest(`FILTERS doit être une liste parmi ${FILTER_KINDS.join(', ')}.`);
    for (const f of FILTERS) {
      if (!FILTER_KINDS.includes(f as FilterKind)) throw badRequest(`FILTERS : filtre inconnu « ${String(f)} » (${FILTER_KINDS.join(', ')}).`);
      if (!filters.includes(f as FilterKind)) filters.push(f as FilterKind);
    }
  }
  const text = (v: unknown, max: number) => (typeof v === 'string' ? v.trim().slice(0, max) : '');
  const detectId = info.detect_id;
  const shape: StrategyShape = {
    detectName: info.function,
    detectId,
    key: isStrategyKey(detectId) || /^perso_/.test(detectId) ? `perso_${detectId}` : detectId,
    entryMode,
    filters,
    params,
    description: text(DESCRIPTION, 2000),
    name: text(NAME, 120),
  };
  // Catalogue names among PARAMS are defaults of engine or filter parameters: check them now.
  normalizeUserParams(shape, {});
  return shape;
}

/** Every parameter name a user strategy reads: its own, the engine's for its entry mode, its filters'. */
export function signatureOf(shape: Pick<StrategyShape, 'params' | 'entryMode' | 'filters'>): string[] {
  const names = [...Object.keys(shape.params), ...ENGINE_PARAMS[shape.entryMode], ...shape.filters.flatMap((f) => FILTER_PARAMS[f])];
  return [...new Set(names)];
}

/** The parameter form of docs/product.md §2.3 "meta.ui": its own and filter parameters basic, engine ones advanced. */
export function uiOf(shape: Pick<StrategyShape, 'params' | 'entryMode' | 'filters'>): { hidden: string[]; basic: string[]; advanced: string[] } {
  const own = Object.keys(shape.params);
  const filterNames = shape.filters.flatMap((f) => FILTER_PARAMS[f]).filter((n) => !own.includes(n));
  const engine = ENGINE_PARAMS[shape.entryMode].filter((n) => !own.includes(n));
  return { hidden: [], basic: [...own, ...filterNames.filter((n) => findParam(n)?.level === 'basic')], advanced: [...engine, ...filterNames.filter((n) => findParam(n)?.level !== 'basic')] };
}

function coerceOwn(name: string, fallback: UserParamValue, value: unknown): UserParamValue {
  if (typeof fallback === 'boolean') return coerceBool(name, value);
  if (typeof fallback === 'string') return coerceString(name, value);
  return Number.isInteger(fallback) ? coerceInt(name, value) : coerceFloat(name, value);
}

/**
 * The values a run uses: the request's, over the file's PARAMS defaults, over the catalogue's; own
 * parameters coerced to the type of their default, catalogue ones by core's normalizeParams
 * (aliases, types, bounds). Unknown names are dropped with a warning (server mode).
 */
export function normalizeUserParams(shape: StrategyShape, raw: unknown): { params: StrategyParams; warnings: string[]; notices: ParamWarning[] } {
  // As core's normalizeParams reads an official strategy's: nothing (absent, null, empty text) is
  // no parameter, else an object of name: value, as such or as JSON text. JSON text `null` reached
  // Object.entries (a 500); `5` or `[1]` were dropped without a word.
  let given: unknown = typeof raw === 'string' ? (raw.trim() ? JSON.parse(raw) : null) : raw;
  given ??= {};
  if (typeof given !== 'object' || Array.isArray(given)) throw new ParamError('params', given, 'an object of name: value');
  const merged: Record<string, unknown> = { ...shape.params };
  for (const [name, value] of Object.entries(given as Record<string, unknown>)) if (!isEmptyValue(value)) merged[name] = value;
  const own: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(merged)) {
    if (Object.hasOwn(shape.params, name) && !findParam(name)) own[name] = coerceOwn(name, shape.params[name], value);
    else rest[name] = value;
  }
  const { params, warnings, notices } = normalizeParams(rest, { strategy: signatureOf(shape).filter((n) => !Object.hasOwn(own, n)), unknown: 'warn' });
  return { params: { ...own, ...params } as StrategyParams, warnings: [...warnings], notices: [...notices] };
}

/** The signal strategy the engine runs, its signals computed beforehand by the sandbox. */
export function signalStrategyOf(shape: StrategyShape, label: string, signals: readonly StrategySignal[]): SignalStrategy {
  return {
    key: shape.key,
    label,
    entryMode: shape.entryMode,
    filters: shape.filters,
    params: signatureOf(shape).filter((n) => !shape.filters.some((f) => FILTER_PARAMS[f].includes(n))),
    signals: () => signals,
  };
}

/**
 * The candles of the dry run: 600 H1 candles of a seeded random walk around 1.10 (EURUSD-like),
 * with RSI_14, so every import is tried on the same data without depending on the library.
 */
export function sampleCandles(n = 600): Candles {
  const random = seededRandom(0x9e3779b9);
  const time = new Float64Array(n);
  const open = new Float64Array(n);
  const high = new Float64Array(n);
  const low = new Float64Array(n);
  const close = new Float64Array(n);
  const volume = new Float64Array(n);
  let price = 1.1;
  const start = Date.UTC(2024, 0, 1);
  for (let i = 0; i < n; i++) {
    time[i] = start + i * 3_600_000;
    open[i] = price;
    const move = (random() - 0.5) * 0.003 + Math.sin(i / 40) * 0.0004;
    price = Math.max(0.5, price + move);
    close[i] = price;
    high[i] = Math.max(open[i], close[i]) + random() * 0.0012;
    low[i] = Math.min(open[i], close[i]) - random() * 0.0012;
    volume[i] = Math.round(500 + random() * 1500);
    for (const a of [open, high, low, close]) a[i] = Math.round(a[i] * 1e5) / 1e5;
  }
  return candlesFromColumns({ time, open, high, low, close, volume, extra: { RSI_14: rsi(close, 14) } }, { symbol: 'EURUSD', timeframe: 'H1' });
}

export const SAMPLE_META = { symbol: 'EURUSD', timeframe: 'H1', pip_size: 0.0001 } as const;
/** Cuts of the look-ahead check on the sample. */
export const LOOKAHEAD_CUTS = [300, 360, 420, 480, 540];
