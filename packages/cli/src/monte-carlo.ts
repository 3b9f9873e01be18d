// `bt backtest --monte-carlo`: the flags, core's monteCarlo on the run's R sequence, and its text.
import type { BacktestResult } from '@bt/core/backtest';
import { monteCarloSize, rSequence, type MonteCarloResult } from '@bt/core/montecarlo';
import { asUsage, quoted, UsageError } from './errors.js';
import { decimalNumber, MAX_WORKERS } from './options.js';
import { monteCarloOnThreads, monteCarloThreads } from './montecarlo/pool.js';
import { count, print, renderTable, styles } from './output.js';

export interface MonteCarloFlags {
  monteCarlo?: string | boolean;
  mcMethod?: string;
  mcSeed?: string;
  mcRisk?: string;
  mcRuin?: string;
  mcTarget?: string;
  mcThreads?: string;
}

export interface MonteCarloRequest {
  readonly runs: number;
  readonly method: 'bootstrap' | 'shuffle';
  readonly seed: number;
  readonly riskPerTrade: number;
  readonly ruinLevel: number;
  readonly target: 'tp1' | 'tp2';
  /** Threads for a bootstrap; null: as many as pay off (montecarlo/pool.ts). */
  readonly threads: number | null;
}

function percent(flag: string, text: string | undefined, fallback: number, max: number): number {
  if (text === undefined) return fallback;
  const value = decimalNumber(String(text).trim().replace(/\s*%$/, ''));
  if (!Number.isFinite(value) || !(value > 0) || value > max) throw new UsageError(`invalid ${flag}: ${quoted(text)} (expected a percent > 0 and at most ${max})`);
  return value / 100;
}

/** The Monte Carlo the flags ask for, checked before any file is read; null without --monte-carlo. */
export function parseMonteCarloFlags(flags: MonteCarloFlags): MonteCarloRequest | null {
  if (flags.monteCarlo === undefined || flags.monteCarlo === false) {
    for (const [name, v] of [['--mc-method', flags.mcMethod], ['--mc-seed', flags.mcSeed], ['--mc-risk', flags.mcRisk], ['--mc-ruin', flags.mcRuin], ['--mc-target', flags.mcTarget], ['--mc-threads', flags.mcThreads]] as const) {
      if (v !== undefined) throw new UsageError(`${name} needs --monte-carlo`);
    }
    return null;
  }
  const whole = (flag: string, text: string, min: number, max: number) => {
    const value = Number(text);
    if (!/^\s*\d+\s*$/.test(text) || value < min || value > max) throw new UsageError(`invalid ${flag}: ${quoted(text)} (expected a whole number from ${min} to ${count(max)})`);
    return value;
  };
  const runs = flags.monteCarlo === true ? 10_000 : whole('--monte-carlo', flags.monteCarlo, 1, 1_000_000);
  const method = (flags.mcMethod ?? 'bootstrap').trim().toLowerCase();
  if (method !== 'bootstrap' && method !== 'shuffle') throw new UsageError(`invalid --mc-method: ${quoted(flags.mcMethod)} (expected bootstrap or shuffle)`);
  const target = (flags.mcTarget ?? 'tp1').trim().toLowerCase();
  if (target !== 'tp1' && target !== 'tp2') throw new UsageError(`invalid --mc-target: ${JSON.stringify(flags.mcTarget)} (expected tp1 or tp2)`);
  return {
    runs,
    method,
    seed: flags.mcSeed === undefined ? 1 : whole('--mc-seed', flags.mcSeed, 0, 0xffffffff),
    riskPerTrade: percent('--mc-risk', flags.mcRisk, 0.01, 99),
    ruinLevel: percent('--mc-ruin', flags.mcRuin, 0.5, 100),
    target,
    // The cap of --concurrency (options.ts MAX_WORKERS): each thread is an isolate of about 12 MB,
    // and 256 of them took 3.1 GB and 1 min 45 s where 2 took 120 MB and 3 s.
    threads: flags.mcThreads === undefined ? null : whole('--mc-threads', flags.mcThreads, 1, MAX_WORKERS),
  };
}

const monteCarloOptions = (request: MonteCarloRequest) => ({ runs: request.runs, method: request.method, seed: request.seed, riskPerTrade: request.riskPerTrade, ruinLevel: request.ruinLevel });

/**
 * Core's bound on the draws (runs × trades), which needs the run's trades: checked as soon as they
 * are known, before the workbook is written, and said of --monte-carlo (core names its `runs`).
 */
export function checkMonteCarlo(result: Pick<BacktestResult, 'trades'>, request: MonteCarloRequest): void {
  const r = rSequence(result.trades, request.target);
  if (r.length > 0) asUsage(() => monteCarloSize(r, monteCarloOptions(request)), '--monte-carlo');
}

/**
 * Core's Monte Carlo on the run's R sequence at the target, on the threads that pay off (the same
 * result on any number); null when no trade is resolved.
 */
export async function runMonteCarlo(result: Pick<BacktestResult, 'trades'>, request: MonteCarloRequest): Promise<{ mc: MonteCarloResult; threads: number } | null> {
  const r = rSequence(result.trades, request.target);
  if (r.length === 0) return null;
  const options = monteCarloOptions(request);
  // checkMonteCarlo's bound, on the R sequence and options already here.
  asUsage(() => monteCarloSize(r, options), '--monte-carlo');
  const threads = monteCarloThreads(r, options, request.threads);
  return { mc: await monteCarloOnThreads(r, options, threads), threads };
}

const num = (x: number, digits = 2) => x.toFixed(digits);

export function printMonteCarlo(mc: MonteCarloResult | null, request: MonteCarloRequest): void {
  const s = styles();
  const target = request.target.toUpperCase();
  if (!mc) {
    print(`\n${s.bold('Monte Carlo')}\n  no resolved trade at ${target}: nothing to draw from`);
    return;
  }
  print(`\n${s.bold(`Monte Carlo (${count(mc.runs)} ${mc.method} runs of ${count(mc.tradesPerRun)} trades, R at ${target}, seed ${mc.seed})`)}`);
  const ps = mc.maxDrawdownR.percentiles.map((p) => `p${p.p}`);
  const row = (label: string, d: MonteCarloResult['finalR'], digits: number) => [label, ...d.percentiles.map((p) => num(p.value, digits)), num(d.mean, digits), num(d.observed, digits)];
  print(
    renderTable(['', ...ps, 'mean', 'observed'], [
      row('Max drawdown (R)', mc.maxDrawdownR, 2),
      row('Final R', mc.finalR, 2),
      row('Longest losing streak', mc.longestLosingStreak, 0),
    ], { header: s.dim, indent: '  ' }),
  );
  const ruin = mc.riskOfRuin;
  print(`  Risk of ruin: ${num(ruin.probability * 100, 2)} % of runs lose ${num(ruin.ruinLevel * 100, 0)} % of the account, risking ${num(ruin.riskPerTrade * 100, 2)} % of the equity per trade`);
}
