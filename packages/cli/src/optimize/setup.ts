// What bt optimize and bt walk-forward share: their flags, checked before any file is read, then
// the data, the base request, the space and the worker pool (docs/cli.md).
import { availableParallelism } from 'node:os';
import type { Candles } from '@bt/core/candles';
import { getStrategy } from '@bt/core/catalogue';
import type { OptimizationBase, ParameterSpace, Search, SearchSpace } from '@bt/core/optimize';
import { OBJECTIVES, type Objective } from '@bt/core/optimize';
import { checkSpreadData, costsFor, parseCostFlags, type CostFlags } from '../costs.js';
import { loadData, type LoadedData } from '../data.js';
import { quoted, UsageError } from '../errors.js';
import { parseConcurrency, parsePeriod, parsePositiveInt, readOptions, type ReadFlags } from '../options.js';
import { requireRegularFile } from '../paths.js';
import { checkPipSize } from '../summary.js';
import { OptimizePool } from './pool.js';
import { spaceFromFlags, type SpaceFlags } from './space-flags.js';

export interface SearchFlags extends CostFlags, ReadFlags, SpaceFlags {
  data: string;
  strategy: string;
  pipSize?: string;
  slMode?: 'external' | 'internal';
  from?: string;
  to?: string;
  objective: string;
  target: string;
  minTrades: string;
  random?: string;
  seed?: string;
  concurrency?: string;
  progress?: boolean;
  json?: boolean;
}

export interface SearchSetup {
  readonly data: LoadedData;
  readonly base: OptimizationBase;
  readonly space: SearchSpace;
  readonly grid: ParameterSpace;
  readonly indices: number[];
  readonly search: Search;
  readonly ranking: { objective: Objective; target: 'tp1' | 'tp2'; minTrades: number };
  readonly period: { from?: number; to?: number };
  readonly concurrency: number;
}

/** Every flag checked, the data read, the space expanded. */
export async function searchSetup(flags: SearchFlags): Promise<SearchSetup> {
  let strategy: string;
  try {
    strategy = getStrategy(flags.strategy).key;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const slMode = flags.slMode ?? 'external';
  if (slMode === 'external') {
    if (flags.sl === undefined) throw new UsageError('missing --sl (required with --sl-mode external): one value or a list such as 10,15,20');
    if (flags.tp1 === undefined) throw new UsageError('missing --tp1 (required with --sl-mode external): one value or a list such as 10,20,30');
  }
  const objective = flags.objective.trim().toLowerCase() as Objective;
  if (!OBJECTIVES.includes(objective)) throw new UsageError(`invalid --objective: ${quoted(flags.objective)} (expected ${OBJECTIVES.join(', ')})`);
  const target = flags.target.trim().toLowerCase();
  if (target !== 'tp1' && target !== 'tp2') throw new UsageError(`invalid --target: ${quoted(flags.target)} (expected tp1 or tp2)`);
  if (!/^\s*\d+\s*$/.test(flags.minTrades) || !Number.isSafeInteger(Number(flags.minTrades))) throw new UsageError(`invalid --min-trades: ${quoted(flags.minTrades)} (expected a whole number ≥ 0)`);
  const minTrades = Number(flags.minTrades);
  const { space, grid } = spaceFromFlags(strategy, flags, slMode);
  if (flags.seed !== undefined && flags.random === undefined) throw new UsageError('--seed needs --random N');
  const search: Search = flags.random !== undefined
    ? { kind: 'random', count: parsePositiveInt('--random', flags.random), seed: flags.seed === undefined ? 1 : Number(flags.seed) }
    : { kind: 'grid' };
  if (search.kind === 'random' && (!/^\s*\d+\s*$/.test(flags.seed ?? '1') || search.seed! > 0xffffffff)) throw new UsageError(`invalid --seed: ${quoted(flags.seed)} (expected a whole number from 0 to 4294967295)`);
  let indices: number[];
  try {
    indices = grid.indices(search);
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/^invalid space: /, ''));
  }
  const concurrency = parseConcurrency(flags.concurrency, availableParallelism());
  const period = parsePeriod(flags.from, flags.to);
  const costRequest = parseCostFlags(flags);
  readOptions(flags);

  await requireRegularFile(flags.data);
  const data = await loadData(flags.data, flags);
  if (!data.symbol) throw new UsageError(`cannot tell the symbol of ${flags.data} (no symbol row, file name not {symbol}_{timeframe}_...): give --symbol`);
  const pipSize = checkPipSize(data.symbol, flags.pipSize);
  const costs = costsFor(costRequest, data.symbol);
  checkSpreadData(data.path, data.file.candles, costs);
  const base: OptimizationBase = { strategy, symbol: data.symbol, pipSize, timeframe: data.timeframe, slMode, costs };
  const workers = workersInMemory(flags.concurrency, Math.min(concurrency, indices.length), data.file.candles);
  return { data, base, space, grid, indices, search, ranking: { objective, target, minTrades }, period, concurrency: workers };
}

/** What all the workers' copies of the candles may take together. */
export const WORKERS_MEMORY_BUDGET = 8 * 2 ** 30;

/**
 * About what one worker holds: its copy of the candle columns and what the engine derives from
 * them (measured: 117 MB a worker for a million M1 candles, 2.4 times their 48 MB of columns),
 * plus its own 16 MB.
 */
export function workerBytes(candles: Pick<Candles, 'length' | 'extra'>): number {
  return 16 * 2 ** 20 + 2.5 * candles.length * (6 + Object.keys(candles.extra).length) * 8;
}

/**
 * The workers started, so that their copies fit in WORKERS_MEMORY_BUDGET: `--concurrency` asking
 * for more is a usage error saying how many fit; the default (the cores) is lowered quietly.
 * Each worker reads the file for itself, and 64 of them on ten million candles wanted 75 GB.
 */
export function workersInMemory(flag: string | undefined, wanted: number, candles: Pick<Candles, 'length' | 'extra'>): number {
  const each = workerBytes(candles);
  const fit = Math.max(1, Math.floor(WORKERS_MEMORY_BUDGET / each));
  if (wanted <= fit) return wanted;
  if (flag === undefined) return fit;
  const gb = (bytes: number) => `${(bytes / 2 ** 30).toFixed(1)} GB`;
  throw new UsageError(`invalid --concurrency: ${quoted(flag)} (${wanted} workers each holding a copy of the ${candles.length.toLocaleString('en-US')} candles, about ${gb(each)} each, need about ${gb(wanted * each)}; at most ${fit} fit in ${gb(WORKERS_MEMORY_BUDGET)})`);
}

/** The worker pool for a setup (each worker reads the data file once). */
export function startPool(setup: SearchSetup, flags: SearchFlags, jobs: number): OptimizePool {
  return new OptimizePool(
    { data: { path: setup.data.path, read: readOptions(flags), symbol: flags.symbol }, base: setup.base, space: setup.space },
    Math.max(1, Math.min(setup.concurrency, jobs)),
  );
}
