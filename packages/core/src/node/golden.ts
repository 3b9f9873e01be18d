// The golden plan and its results: every official strategy run on real fixtures, stored trade by
// trade under fixtures/golden/ and recomputed by core's test and by `bt regress`. One module so
// that both read the same plan (fixtures/golden/plan.json) and write the same files.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { runBacktest, ENGINE_VERSION, type BacktestRequest } from '../backtest/index.js';
import { STRATEGIES } from '../catalogue/strategies.js';
import type { Trade } from '../simulate/types.js';
import { readCandlesFile } from './candle-files.js';

export interface GoldenScenario {
  readonly name: string;
  /** Candle file, relative to the plan's fixtures folder. */
  readonly file: string;
  readonly read: { readonly symbol: string; readonly utcOffset?: string };
  readonly request: Omit<BacktestRequest, 'strategy' | 'params'>;
  /** Parameters per entry mode (unknown ones would be refused). */
  readonly params?: { readonly pullback: Record<string, unknown>; readonly signal: Record<string, unknown> };
}

export interface GoldenPlan {
  /** The plan file. */
  readonly path: string;
  /** Folder of the golden files (`{scenario}.json`): the plan's folder. */
  readonly dir: string;
  /** Folder the scenarios' `file` paths are relative to. */
  readonly fixtures: string;
  readonly scenarios: readonly GoldenScenario[];
}

export const TRADE_COLUMNS = [
  'entryTime', 'side', 'signalTime', 'orderPrice', 'entryPrice', 'sl', 'tp1', 'tp2', 'outcome',
  'tp1Time', 'tp2Time', 'slTime', 'mfePips', 'maePips', 'rTp1', 'rTp2', 'ambiguous',
] as const;

export type GoldenRow = (string | number | null)[];

export interface GoldenStrategy {
  readonly setups: number;
  readonly trades: number;
  readonly tp1Wins: number;
  readonly tp2Wins: number;
  readonly sl: number;
  readonly open: number;
  readonly ambiguous: number;
  readonly winrateTp1: number | null;
  readonly expectancyTp1: number | null;
  /** The golden hours: [UTC hour, TP1 win rate, resolved trades], best first (docs/report.md). */
  readonly goldenHours: [number, number, number][];
  readonly rows: GoldenRow[];
}

export interface GoldenFile {
  readonly scenario: string;
  readonly engineVersion: string;
  readonly fixture: string;
  readonly request: unknown;
  readonly columns: readonly string[];
  readonly strategies: Record<string, GoldenStrategy>;
  /** Why the file last changed (a note is required to update it). */
  readonly history: readonly { engineVersion: string; note: string }[];
}

const REQUEST_KEYS = new Set(['symbol', 'slMode', 'slPips', 'tp1Pips', 'tp2Pips', 'timeframe', 'pipSize', 'from', 'to', 'costs']);

function planError(path: string, where: string, message: string): Error {
  return new Error(`invalid golden plan ${path}: ${where}${where ? ': ' : ''}${message}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `from`/`to` as ISO text (readable in the plan) or ms. */
function planTime(path: string, where: string, value: unknown): number {
  const ms = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) throw planError(path, where, `${JSON.stringify(value)} is not a date (expected ISO 8601 such as "2023-01-01T00:00:00Z")`);
  return ms;
}

/** Checks a parsed plan (JSON or YAML) and resolves its folders against the plan file's folder. */
export function parseGoldenPlan(json: unknown, path: string): GoldenPlan {
  if (!isRecord(json)) throw planError(path, '', 'expected an object with "scenarios"');
  if (json.version !== undefined && json.version !== 1) throw planError(path, 'version', `${JSON.stringify(json.version)} (expected 1)`);
  const dir = dirname(resolve(path));
  const fixtures = typeof json.fixtures === 'string' ? resolve(dir, json.fixtures) : dir;
  if (!Array.isArray(json.scenarios) || json.scenarios.length === 0) throw planError(path, 'scenarios', 'expected a non-empty list');
  const names = new Set<string>();
  const scenarios = json.scenarios.map((s: unknown, i: number): GoldenScenario => {
    const at = `scenarios[${i}]`;
    if (!isRecord(s)) throw planError(path, at, 'expected an object');
    if (typeof s.name !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(s.name)) throw planError(path, `${at}.name`, `${JSON.stringify(s.name)} (expected a file-safe name)`);
    if (names.has(s.name)) throw planError(path, `${at}.name`, `"${s.name}" is used twice`);
    names.add(s.name);
    if (typeof s.file !== 'string' || s.file === '' || isAbsolute(s.file)) throw planError(path, `${at}.file`, `${JSON.stringify(s.file)} (expected a path relative to ${fixtures})`);
    // The golden file is {name}.json beside the plan: `--update` must never write it over the plan
    // or over the candles the scenario reads (a scenario "plan" in plan.json replaced the plan).
    const golden = join(dir, `${s.name}.json`);
    if (golden === resolve(path)) throw planError(path, `${at}.name`, `"${s.name}": its golden file ${s.name}.json would be the plan itself (rename the scenario)`);
    if (golden === resolve(fixtures, s.file)) throw planError(path, `${at}.name`, `"${s.name}": its golden file ${s.name}.json would be the scenario's own file (rename the scenario)`);
    if (!isRecord(s.read) || typeof s.read.symbol !== 'string') throw planError(path, `${at}.read`, 'expected { "symbol": ..., "utcOffset"?: ... }');
    if (!isRecord(s.request) || typeof s.request.symbol !== 'string') throw planError(path, `${at}.request`, 'expected an object with "symbol"');
    const request: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(s.request)) {
      if (!REQUEST_KEYS.has(key)) throw planError(path, `${at}.request.${key}`, `unknown field (expected ${[...REQUEST_KEYS].join(', ')})`);
      request[key] = key === 'from' || key === 'to' ? planTime(path, `${at}.request.${key}`, value) : value;
    }
    let params: GoldenScenario['params'];
    if (s.params !== undefined) {
      if (!isRecord(s.params) || !isRecord(s.params.pullback) || !isRecord(s.params.signal)) {
        throw planError(path, `${at}.params`, 'expected { "pullback": {...}, "signal": {...} }');
      }
      params = { pullback: s.params.pullback, signal: s.params.signal };
    }
    const read = { symbol: s.read.symbol, ...(typeof s.read.utcOffset === 'string' ? { utcOffset: s.read.utcOffset } : {}) };
    return { name: s.name, file: s.file, read, request: request as GoldenScenario['request'], ...(params ? { params } : {}) };
  });
  return { path: resolve(path), dir, fixtures, scenarios };
}

/** Reads and checks a JSON golden plan. */
export function readGoldenPlan(path: string): GoldenPlan {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code) throw error;
    throw planError(path, '', `not valid JSON (${(error as Error).message})`);
  }
  return parseGoldenPlan(json, path);
}

export function goldenFilePath(plan: GoldenPlan, scenario: GoldenScenario): string {
  return join(plan.dir, `${scenario.name}.json`);
}

const sig = (x: number) => Number(x.toPrecision(10));
const pips = (x: number) => Math.round(x * 1e6) / 1e6;
const r6 = (x: number | null) => (x === null ? null : Math.round(x * 1e6) / 1e6);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString().slice(0, 16));

/** A trade rounded so that only a change of rules, not float noise, changes it. */
export function goldenRow(t: Trade): GoldenRow {
  return [
    iso(t.entryTime), t.side, iso(t.signalTime), sig(t.orderPrice), sig(t.entryPrice), sig(t.sl), sig(t.tp1), sig(t.tp2), t.outcome,
    iso(t.tp1Time), iso(t.tp2Time), iso(t.slTime), pips(t.mfePips), pips(t.maePips), pips(t.rTp1), pips(t.rTp2), t.ambiguous ? 1 : 0,
  ];
}

export interface ComputeGoldenOptions {
  /** Only these strategy keys (default: all 24). */
  readonly strategies?: readonly string[];
  /** Called after each strategy (progress). */
  readonly onStrategy?: (key: string) => void;
}

/** Runs every strategy of a scenario; `fixtures` is the folder its file is relative to. */
export async function computeGolden(s: GoldenScenario, fixtures: string, options: ComputeGoldenOptions = {}): Promise<Omit<GoldenFile, 'history'>> {
  const { candles } = await readCandlesFile(join(fixtures, s.file), s.read);
  const strategies: Record<string, GoldenStrategy> = {};
  for (const def of STRATEGIES) {
    if (options.strategies && !options.strategies.includes(def.key)) continue;
    const params = s.params?.[def.entryMode];
    const r = await runBacktest(candles, { ...s.request, strategy: def.key, params });
    const g = r.statistics.global;
    strategies[def.key] = {
      setups: r.counts.setups,
      trades: g.trades,
      tp1Wins: g.tp1Wins,
      tp2Wins: g.tp2Wins,
      sl: g.sl,
      open: g.open,
      ambiguous: g.ambiguous,
      winrateTp1: r6(g.tp1.winrate),
      expectancyTp1: r6(g.tp1.expectancyR),
      goldenHours: r.golden_hours.golden_hours.map((h) => [h.hour, r6(h.TP1)!, h.trades]),
      rows: r.trades.map(goldenRow),
    };
    options.onStrategy?.(def.key);
  }
  return { scenario: s.name, engineVersion: ENGINE_VERSION, fixture: s.file, request: { ...s.request, params: s.params ?? null }, columns: TRADE_COLUMNS, strategies };
}

/** One line per trade keeps diffs of the JSON readable. */
export function formatGolden(file: GoldenFile): string {
  const lines: string[] = ['{'];
  lines.push(`  "scenario": ${JSON.stringify(file.scenario)},`);
  lines.push(`  "engineVersion": ${JSON.stringify(file.engineVersion)},`);
  lines.push(`  "fixture": ${JSON.stringify(file.fixture)},`);
  lines.push(`  "request": ${JSON.stringify(file.request)},`);
  lines.push(`  "history": ${JSON.stringify(file.history)},`);
  lines.push(`  "columns": ${JSON.stringify(file.columns)},`);
  lines.push('  "strategies": {');
  const keys = Object.keys(file.strategies);
  keys.forEach((key, k) => {
    const { rows, ...summary } = file.strategies[key];
    lines.push(`    ${JSON.stringify(key)}: {`);
    for (const [name, value] of Object.entries(summary)) lines.push(`      ${JSON.stringify(name)}: ${JSON.stringify(value)},`);
    lines.push('      "rows": [');
    rows.forEach((row, i) => lines.push(`        ${JSON.stringify(row)}${i < rows.length - 1 ? ',' : ''}`));
    lines.push('      ]');
    lines.push(`    }${k < keys.length - 1 ? ',' : ''}`);
  });
  lines.push('  }', '}');
  return `${lines.join('\n')}\n`;
}

/** The stored file updated with a new computation; the note joins the history only when results moved. */
export function updateGoldenFile(stored: GoldenFile | null, now: Omit<GoldenFile, 'history'>, note: string): { file: GoldenFile; changed: boolean } {
  const changed = !stored || JSON.stringify(stored.strategies) !== JSON.stringify(now.strategies);
  const history = [...(stored?.history ?? [])];
  if (changed) history.push({ engineVersion: ENGINE_VERSION, note });
  return { file: { ...now, history }, changed };
}

/** One difference between a golden file and a new computation. */
export interface GoldenDrift {
  readonly strategy: string;
  /** A summary field (`trades`, `winrateTp1`...), a trade column, or `strategy` when a whole strategy is missing or new. */
  readonly field: string;
  /** 1-based trade number for a trade difference. */
  readonly trade?: number;
  readonly expected: unknown;
  readonly actual: unknown;
}

/**
 * Every summary difference per strategy, and the first differing trade of each strategy column by
 * column (later trades usually move with it; the summary says how many trades changed in all).
 */
export function compareGolden(stored: Pick<GoldenFile, 'strategies' | 'columns'>, now: Pick<GoldenFile, 'strategies'>): GoldenDrift[] {
  const drifts: GoldenDrift[] = [];
  const keys = [...new Set([...Object.keys(stored.strategies), ...Object.keys(now.strategies)])];
  for (const key of keys) {
    const expected = stored.strategies[key];
    const actual = now.strategies[key];
    if (!expected || !actual) {
      drifts.push({ strategy: key, field: 'strategy', expected: expected ? 'present' : 'absent', actual: actual ? 'present' : 'absent' });
      continue;
    }
    const { rows: expectedRows, ...expectedSummary } = expected;
    const { rows: actualRows, ...actualSummary } = actual;
    for (const field of Object.keys({ ...expectedSummary, ...actualSummary })) {
      const e = (expectedSummary as Record<string, unknown>)[field];
      const a = (actualSummary as Record<string, unknown>)[field];
      if (JSON.stringify(e) !== JSON.stringify(a)) drifts.push({ strategy: key, field, expected: e ?? null, actual: a ?? null });
    }
    const n = Math.max(expectedRows.length, actualRows.length);
    for (let i = 0; i < n; i++) {
      const e = expectedRows[i];
      const a = actualRows[i];
      if (JSON.stringify(e) === JSON.stringify(a)) continue;
      if (!e || !a) {
        drifts.push({ strategy: key, field: 'trade', trade: i + 1, expected: e ? e.join(' ') : 'none', actual: a ? a.join(' ') : 'none' });
      } else {
        stored.columns.forEach((column, c) => {
          if (JSON.stringify(e[c]) !== JSON.stringify(a[c])) drifts.push({ strategy: key, field: column, trade: i + 1, expected: e[c], actual: a[c] });
        });
      }
      break;
    }
  }
  return drifts;
}
