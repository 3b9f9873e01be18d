// `bt regress [PLAN]`: the golden plan recomputed by core (the same code and files as core's
// golden test) and compared trade by trade; `--update --note` rewrites the files.
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENGINE_VERSION } from '@bt/core/backtest';
import { compareGolden, computeGolden, formatGolden, goldenFilePath, parseGoldenPlan, readUserText, updateGoldenFile, writeFileWhole, type GoldenDrift, type GoldenFile, type GoldenPlan } from '@bt/core/node';
import { fileError, quoted, RunError, UsageError } from '../errors.js';
import { count, jsonHeader, print, printJson, renderTable, styles } from '../output.js';
import { readPlanFile } from '../plan-file.js';

/** The flags of the command (commands/regress.ts declares them). */
export interface RegressFlags {
  update?: boolean;
  note?: string;
  scenario?: string[];
  json?: boolean;
}

const PLAN = join('fixtures', 'golden', 'plan.json');

/** The repository's golden plan: beside the installed CLI (packages/cli/dist → repo root), else above the current folder. */
export function defaultGoldenPlan(): string {
  const fromInstall = resolve(dirname(fileURLToPath(import.meta.url)), '../../..', PLAN);
  if (existsSync(fromInstall)) return fromInstall;
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    if (existsSync(join(dir, PLAN))) return join(dir, PLAN);
    if (dirname(dir) === dir) break;
  }
  throw new UsageError(`no golden plan given and no ${PLAN} found here or above: give PLAN`);
}

interface ScenarioReport {
  name: string;
  fixture: string;
  golden_file: string;
  status: 'ok' | 'drift' | 'missing' | 'updated' | 'unchanged' | 'created';
  strategies: number;
  trades: number;
  drifts: GoldenDrift[];
  ms: number;
}

const show = (v: unknown) => (v === null || v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v));

/**
 * What makes a parsed golden file unusable, or null: the comparison reads its strategies' rows and
 * its columns, and a hand-edited or cut file ({}, a list) ended in "bt: Cannot convert undefined
 * or null to object".
 */
function notGolden(value: unknown): string | null {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(value)) return `${value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`}, expected an object`;
  if (!Array.isArray(value.columns) || !value.columns.every((c) => typeof c === 'string')) return 'columns is not a list of names';
  if (value.history !== undefined && !Array.isArray(value.history)) return 'history is not a list';
  if (!isObject(value.strategies)) return 'strategies is not an object';
  for (const [key, entry] of Object.entries(value.strategies)) {
    if (!isObject(entry) || !Array.isArray(entry.rows) || !entry.rows.every(Array.isArray)) return `strategies.${key} has no list of trade rows`;
  }
  return null;
}

export async function regressCommand(planArg: string | undefined, flags: RegressFlags): Promise<void> {
  if (flags.update && !flags.note?.trim()) throw new UsageError('--update needs --note "why the results moved" (it is kept in each changed file\'s history)');
  if (flags.note !== undefined && !flags.update) throw new UsageError('--note goes with --update');
  const path = planArg ?? defaultGoldenPlan();
  let plan: GoldenPlan;
  const json = await readPlanFile(path);
  try {
    plan = parseGoldenPlan(json, path);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const wanted = flags.scenario ?? [];
  for (const name of wanted) {
    if (!plan.scenarios.some((s) => s.name === name)) throw new UsageError(`invalid --scenario: ${quoted(name)} (the plan has ${plan.scenarios.map((s) => s.name).join(', ')})`);
  }
  const scenarios = wanted.length ? plan.scenarios.filter((s) => wanted.includes(s.name)) : plan.scenarios;
  const s = styles();
  const reports: ScenarioReport[] = [];
  for (const scenario of scenarios) {
    const t0 = performance.now();
    let now: Omit<GoldenFile, 'history'>;
    try {
      now = await computeGolden(scenario, plan.fixtures);
    } catch (error) {
      throw new RunError(`scenario ${scenario.name}: ${(error as Error).message}`);
    }
    const file = goldenFilePath(plan, scenario);
    let stored: GoldenFile | null = null;
    let found = true;
    try {
      stored = JSON.parse(await readUserText(file)) as GoldenFile;
    } catch (error) {
      // A missing golden file is reported as missing; anything else names the file and why.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw fileError(file, error);
      found = false;
    }
    // A file holding `null` parses as a missing one reads: told apart by whether it was read.
    if (found) {
      const why = notGolden(stored);
      if (why) throw new RunError(`cannot read ${file}: not a golden file (${why}); restore it from version control, or delete it and run bt regress --update --note "why" to write it again`);
    }
    const trades = Object.values(now.strategies).reduce((n, g) => n + g.trades, 0);
    const report: ScenarioReport = { name: scenario.name, fixture: scenario.file, golden_file: displayPath(file), status: 'ok', strategies: Object.keys(now.strategies).length, trades, drifts: [], ms: 0 };
    if (flags.update) {
      const { file: next, changed } = updateGoldenFile(stored, now, flags.note!.trim());
      if (changed) await writeFileWhole(file, formatGolden(next));
      report.status = !stored ? 'created' : changed ? 'updated' : 'unchanged';
    } else if (!stored) {
      report.status = 'missing';
    } else {
      report.drifts = compareGolden(stored, now);
      if (report.drifts.length > 0) report.status = 'drift';
    }
    report.ms = Math.round(performance.now() - t0);
    reports.push(report);
    if (!flags.json) printScenario(report, s);
  }
  const failed = reports.filter((r) => r.status === 'drift' || r.status === 'missing');
  if (flags.json) {
    printJson({ ...jsonHeader('regress'), plan: resolve(path), engine_version: ENGINE_VERSION, ok: failed.length === 0, scenarios: reports });
  } else if (failed.length === 0) {
    print(s.dim(`\n${reports.length} scenario${reports.length === 1 ? '' : 's'}, engine ${ENGINE_VERSION}: ${flags.update ? 'golden files written where results moved' : 'no drift'}`));
  }
  if (failed.length > 0) {
    process.stderr.write(`bt: drift in ${failed.map((r) => r.name).join(', ')}: the engine's results moved. If that is deliberate, bump ENGINE_VERSION and run bt regress --update --note "why"\n`);
    process.exitCode = 1;
  }
}

function printScenario(r: ScenarioReport, s: ReturnType<typeof styles>): void {
  const what = `${r.name} (${r.fixture}): ${r.strategies} strategies, ${count(r.trades)} trades, ${(r.ms / 1000).toFixed(1)} s`;
  if (r.status === 'ok') return print(`${s.green('ok')}     ${what}`);
  if (r.status === 'missing') return print(`${s.red('MISSING')} ${what}: no golden file ${r.golden_file} (create it with --update --note)`);
  if (r.status !== 'drift') return print(`${s.cyan(r.status.padEnd(6))} ${what} → ${r.golden_file}`);
  const strategies = new Set(r.drifts.map((d) => d.strategy)).size;
  print(`${s.red('DRIFT')}  ${what}: ${strategies} strateg${strategies === 1 ? 'y differs' : 'ies differ'}`);
  const rows = r.drifts.map((d) => [d.strategy, d.trade === undefined ? '' : String(d.trade), d.field, show(d.expected), show(d.actual)]);
  print(renderTable(['strategy', 'trade', 'field', 'golden', 'now'], rows, { header: s.dim, indent: '         ', align: ['left', 'right', 'left', 'right', 'right'] }));
}

/** Relative to the current folder when the file is below it, else absolute. */
function displayPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel && !rel.startsWith('..') ? rel : file;
}
