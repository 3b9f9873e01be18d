// Batch plans: strategies x data files x exits x parameter grid, checked completely before any
// run starts (every error names its place in the plan: `data[1].utc_offset`, `params.max_touch`).
// Parameter rules are core's (normalizeParams); the plan only decides which combinations exist.
import { isAbsolute, resolve, dirname, basename, extname } from 'node:path';
import { closest, getStrategy, PARAM_NAMES, pipSize, STRATEGY_KEYS } from '@bt/core/catalogue';
import { canonicalParamName, normalizeParams } from '@bt/core/params';
import { quoted, UsageError } from '../errors.js';
import { checkFormatFor, parseDate, readOptions } from '../options.js';
import { exitValues } from '../request.js';
import type { ReadCandlesOptions } from '@bt/core/candles';

/** One data file of the plan, as the workers read it. */
export interface DataSpec {
  readonly path: string;
  /** As written in the plan (shown in tables). */
  readonly label: string;
  readonly read: ReadCandlesOptions;
  readonly symbol?: string;
  readonly pipSize?: string;
  readonly from?: number;
  readonly to?: number;
}

/** One run: indices into the plan's data list, a strategy, its raw grid values and exits. */
export interface RunTask {
  readonly id: number;
  readonly data: number;
  readonly strategy: string;
  /** Canonical names → the plan's values (only the parameters this strategy reads). */
  readonly params: Readonly<Record<string, unknown>>;
  readonly slMode: 'external' | 'internal';
  readonly slPips?: number;
  readonly tp1Pips?: number;
  readonly tp2Pips?: number;
}

export interface BatchPlan {
  readonly path: string;
  readonly name: string;
  readonly data: readonly DataSpec[];
  readonly strategies: readonly string[];
  /** Canonical names of the grid parameters, in plan order (CSV columns). */
  readonly gridParams: readonly string[];
  readonly out?: string;
  readonly runs: readonly RunTask[];
}

/** More runs than this is almost surely a mistake in a grid. */
export const MAX_RUNS = 100_000;

const TOP_KEYS = ['version', 'name', 'strategies', 'data', 'params', 'sl', 'tp1', 'tp2', 'sl_mode', 'from', 'to', 'out'];
const DATA_KEYS = ['path', 'symbol', 'timeframe', 'utc_offset', 'format', 'duplicates', 'pip_size', 'from', 'to'];

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);

function planError(path: string, where: string, message: string): UsageError {
  return new UsageError(`invalid plan ${path}: ${where ? `${where}: ` : ''}${message}`);
}

function checkKeys(path: string, where: string, value: Json, allowed: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (allowed.includes(key)) continue;
    const hint = closest(key, allowed, Math.max(1, Math.floor(key.length / 3)));
    throw planError(path, where ? `${where}.${key}` : key, `unknown field${hint ? ` (did you mean ${hint}?)` : ''}; expected ${allowed.join(', ')}`);
  }
}

/** Runs a check that throws `invalid --flag: ...` and rewrites it to point into the plan. */
function inPlan<T>(path: string, where: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    const message = (error as Error).message.replace(/^invalid --?[\w-]+: /, '').replace(/^missing --(\w+)/, 'missing $1');
    throw planError(path, where, message);
  }
}

function text(path: string, where: string, value: unknown): string {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (typeof value === 'number') return String(value);
  throw planError(path, where, `${quoted(value)} (expected text)`);
}

function dateOf(path: string, where: string, value: unknown, edge: 'start' | 'end'): number | undefined {
  if (value === undefined || value === null) return undefined;
  // YAML reads an unquoted 2023-01-01 as a Date.
  const written = value instanceof Date ? value.toISOString().replace(/T00:00:00\.000Z$/, '') : text(path, where, value);
  return inPlan(path, where, () => parseDate(`--${edge === 'start' ? 'from' : 'to'}`, written, edge));
}

function dataSpec(path: string, planDir: string, entry: unknown, i: number, defaults: { from?: number; to?: number }): DataSpec {
  const where = `data[${i}]`;
  const spec: Json = typeof entry === 'string' ? { path: entry } : isRecord(entry) ? entry : {};
  if (typeof spec.path !== 'string' || spec.path.trim() === '') throw planError(path, where, 'expected a file path, or an object with "path"');
  checkKeys(path, where, spec, DATA_KEYS);
  const flags = {
    format: spec.format === undefined ? undefined : text(path, `${where}.format`, spec.format),
    utcOffset: spec.utc_offset === undefined ? undefined : text(path, `${where}.utc_offset`, spec.utc_offset),
    duplicates: spec.duplicates === undefined ? undefined : text(path, `${where}.duplicates`, spec.duplicates),
    timeframe: spec.timeframe === undefined ? undefined : text(path, `${where}.timeframe`, spec.timeframe),
  };
  const read = inPlan(path, where, () => readOptions(flags));
  inPlan(path, `${where}.format`, () => checkFormatFor(spec.path as string, read));
  const from = dateOf(path, `${where}.from`, spec.from, 'start') ?? defaults.from;
  const to = dateOf(path, `${where}.to`, spec.to, 'end') ?? defaults.to;
  if (from !== undefined && to !== undefined && to < from) throw planError(path, where, 'the period ends before it starts (from/to)');
  const file = spec.path.trim();
  if (spec.pip_size !== undefined) {
    inPlan(path, `${where}.pip_size`, () => {
      // Core's rule: a decimal number in its range ("0x10" is not 16).
      return pipSize('', text(path, `${where}.pip_size`, spec.pip_size));
    });
  }
  return {
    path: isAbsolute(file) ? file : resolve(planDir, file),
    label: file,
    read,
    ...(spec.symbol !== undefined ? { symbol: text(path, `${where}.symbol`, spec.symbol) } : {}),
    ...(spec.pip_size !== undefined ? { pipSize: text(path, `${where}.pip_size`, spec.pip_size) } : {}),
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined ? { to } : {}),
  };
}

function strategiesOf(path: string, value: unknown): string[] {
  if (value === undefined) throw planError(path, 'strategies', 'missing (a list of strategy keys, or "all")');
  if (value === 'all') return [...STRATEGY_KEYS];
  const keys = list(value).map((v, i) => {
    const key = text(path, `strategies[${i}]`, v);
    if (key === 'all') return STRATEGY_KEYS;
    return [inPlan(path, `strategies[${i}]`, () => getStrategy(key)).key];
  });
  return [...new Set(keys.flat())];
}

/**
 * The runs `lists` make, times `times`, refused past MAX_RUNS before any combination is built: the
 * product used to be built first, and three parameters of 1,000 values (a 20 KB plan) built a
 * billion objects until the process died of memory, with V8's trace.
 */
function runCount(path: string, lists: readonly (readonly [string, readonly unknown[]])[], times: number): number {
  const count = lists.reduce((n, [, values]) => n * values.length, times);
  if (count > MAX_RUNS) throw planError(path, '', `${count.toLocaleString('en-US')} runs, more than ${MAX_RUNS.toLocaleString('en-US')}: narrow the grid`);
  return count;
}

/** Every combination of the value lists, in order (the last name varies fastest). */
function product(grid: readonly (readonly [string, readonly unknown[]])[]): Record<string, unknown>[] {
  let combos: Record<string, unknown>[] = [{}];
  for (const [name, values] of grid) combos = combos.flatMap((c) => values.map((v) => ({ ...c, [name]: v })));
  return combos;
}

/** Checks a parsed plan and expands it into runs. `path` is the plan file (relative paths start from its folder). */
export function expandPlan(json: unknown, path: string): BatchPlan {
  if (!isRecord(json)) throw planError(path, '', 'expected a mapping with strategies and data');
  checkKeys(path, '', json, TOP_KEYS);
  if (json.version !== undefined && json.version !== 1) throw planError(path, 'version', `${quoted(json.version)} (expected 1)`);
  const planDir = dirname(resolve(path));
  const strategies = strategiesOf(path, json.strategies);
  if (json.data === undefined || (Array.isArray(json.data) && json.data.length === 0)) throw planError(path, 'data', 'missing (a list of candle files)');
  const from = dateOf(path, 'from', json.from, 'start');
  const to = dateOf(path, 'to', json.to, 'end');
  const data = list(json.data).map((entry, i) => dataSpec(path, planDir, entry, i, { from, to }));

  // Exits: each may be a list, part of the product (counted first: see runCount).
  const exitLists: [string, unknown[]][] = [
    ['slMode', list(json.sl_mode ?? 'external')],
    ['sl', list(json.sl ?? null)],
    ['tp1', list(json.tp1 ?? null)],
    ['tp2', list(json.tp2 ?? null)],
  ];
  const exitCount = runCount(path, exitLists, 1);
  const exitGrid = product(exitLists).map((e) => {
    const slMode = e.slMode === 'external' || e.slMode === 'internal' ? e.slMode : undefined;
    if (!slMode) throw planError(path, 'sl_mode', `${quoted(e.slMode)} (expected external or internal)`);
    const pips = (v: unknown) => (v === null ? undefined : typeof v === 'number' ? v : String(v));
    return inPlan(path, 'sl/tp1/tp2', () => exitValues({ slMode, sl: pips(e.sl), tp1: pips(e.tp1), tp2: pips(e.tp2) }));
  });

  // Parameter grid: canonical names; each must be read by at least one planned strategy.
  const rawGrid = json.params === undefined ? {} : json.params;
  if (!isRecord(rawGrid)) throw planError(path, 'params', 'expected a mapping of parameter name to a value or a list of values');
  const grid: [string, unknown[]][] = [];
  for (const [spelling, values] of Object.entries(rawGrid)) {
    const name = canonicalParamName(spelling);
    if (!PARAM_NAMES.includes(name)) {
      const hint = closest(spelling, PARAM_NAMES, Math.max(1, Math.floor(spelling.length / 3)));
      throw planError(path, `params.${spelling}`, `unknown parameter${hint ? ` (did you mean ${hint}?)` : ''}`);
    }
    if (!strategies.some((key) => getStrategy(key).params.includes(name))) throw planError(path, `params.${spelling}`, `no strategy of the plan reads ${name}`);
    if (grid.some(([n]) => n === name)) throw planError(path, `params.${spelling}`, `${name} is given twice`);
    const valueList = list(values);
    if (valueList.length === 0) throw planError(path, `params.${spelling}`, 'an empty list (give at least one value)');
    grid.push([name, valueList]);
  }

  let planned = 0;
  for (const key of strategies) {
    const reads = getStrategy(key).params;
    planned += runCount(path, grid.filter(([name]) => reads.includes(name)), data.length * exitCount);
    if (planned > MAX_RUNS) throw planError(path, '', `${planned.toLocaleString('en-US')} runs, more than ${MAX_RUNS.toLocaleString('en-US')}: narrow the grid`);
  }
  const runs: RunTask[] = [];
  let id = 0;
  for (let d = 0; d < data.length; d++) {
    for (const key of strategies) {
      const reads = getStrategy(key).params;
      const combos = product(grid.filter(([name]) => reads.includes(name)));
      for (const params of combos) {
        inPlan(path, `params (${key}: ${Object.entries(params).map(([k, v]) => `${k}=${v}`).join(', ') || 'defaults'})`, () =>
          normalizeParams(params, { strategy: key, unknown: 'error' }),
        );
        for (const exits of exitGrid) {
          runs.push({ id: ++id, data: d, strategy: key, params, ...exits });
        }
      }
    }
  }
  // The name makes the CSV's default path, {name}-runs.csv in the current folder: a folder in it
  // ("../../x", "/etc/x") would have written the CSV elsewhere.
  // (`name: 2024` is a number in YAML: it names the CSV as written.)
  // (`name:` with nothing after it is null in YAML: no name.)
  const given = typeof json.name === 'number' && Number.isFinite(json.name) ? String(json.name) : json.name ?? undefined;
  if (given !== undefined && (typeof given !== 'string' || /[/\\\u0000-\u001f\u007f]/.test(given) || given.trim().startsWith('.'))) {
    const what = typeof given === 'string' ? quoted(given) : Array.isArray(given) ? 'a list' : typeof given === 'object' ? 'an object' : `a ${typeof given}`;
    throw planError(path, 'name', `${what} (expected a file name without folders: the CSV is {name}-runs.csv in the current folder)`);
  }
  const name = typeof given === 'string' && given.trim() ? given.trim() : basename(path, extname(path));
  const out = json.out === undefined ? undefined : resolve(planDir, text(path, 'out', json.out));
  return { path, name, data, strategies, gridParams: grid.map(([n]) => n), ...(out ? { out } : {}), runs };
}
