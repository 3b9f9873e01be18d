// `bt backtest`: candles → core's runBacktest → summary, JSON or workbook. Nothing here decides a
// trade: the CLI only reads files, checks flags and prints.
import { join } from 'node:path';
import { runBacktest, backtestResultJson, type BacktestResult } from '@bt/core/backtest';
import { writeFileWhole } from '@bt/core/node';
import { checkSpreadData, costsFor, parseCostFlags, type CostFlags } from '../costs.js';
import { checkMonteCarlo, parseMonteCarloFlags, printMonteCarlo, runMonteCarlo, type MonteCarloFlags } from '../monte-carlo.js';
import { loadData, type LoadedData } from '../data.js';
import { RunError, UsageError } from '../errors.js';
import { parsePeriod } from '../options.js';
import { makeDirectory } from '../paths.js';
import { jsonHeader, print, printJson, warn } from '../output.js';
import { checkStrategy, exitValues, rawParams } from '../request.js';
import { checkPipSize, printSummary } from '../summary.js';

/** The flags of the command (commands/backtest.ts declares them). */
export interface BacktestFlags extends CostFlags, MonteCarloFlags {
  data: string;
  symbol?: string;
  timeframe?: string;
  pipSize?: string;
  strategy: string;
  param?: string[];
  paramsJson?: string;
  sl?: string;
  tp1?: string;
  tp2?: string;
  slMode?: 'external' | 'internal';
  from?: string;
  to?: string;
  ltf?: string;
  out?: string;
  json?: boolean;
  format?: string;
  utcOffset?: string;
  duplicates?: string;
}

export async function backtestCommand(flags: BacktestFlags): Promise<void> {
  const started = performance.now();
  const params = rawParams(flags.param, flags.paramsJson);
  checkStrategy(flags.strategy, params);
  const exits = exitValues({ slMode: flags.slMode, sl: flags.sl, tp1: flags.tp1, tp2: flags.tp2 });
  const period = parsePeriod(flags.from, flags.to);
  const costRequest = parseCostFlags(flags);
  const mcRequest = parseMonteCarloFlags(flags);

  const data = await loadData(flags.data, flags);
  if (!data.symbol) throw new UsageError(`cannot tell the symbol of ${flags.data} (no symbol row, file name not {symbol}_{timeframe}_...): give --symbol`);
  const pipSize = checkPipSize(data.symbol, flags.pipSize);
  const costs = costsFor(costRequest, data.symbol);
  checkSpreadData(data.path, data.file.candles, costs);
  let ltf: LoadedData | undefined;
  if (flags.ltf) {
    ltf = await loadData(flags.ltf, { ...flags, timeframe: undefined, symbol: undefined });
    if (ltf.symbol && ltf.symbol !== data.symbol) throw new RunError(`invalid --ltf: ${flags.ltf} holds ${ltf.symbol} candles (${ltf.symbolFrom}), the run's are ${data.symbol}`);
  }

  let result: BacktestResult;
  try {
    result = await runBacktest(
      data.file.candles,
      { strategy: flags.strategy, params, ...exits, ...period, symbol: data.symbol, timeframe: data.timeframe, pipSize, ltf: ltf?.file.candles, unknownParams: 'error', costs },
      { workbook: flags.out !== undefined },
    );
  } catch (error) {
    throw new RunError((error as Error).message);
  }

  if (mcRequest) checkMonteCarlo(result, mcRequest);
  let workbookPath: string | null = null;
  const t0 = performance.now();
  if (flags.out !== undefined && result.workbook) {
    const folder = join(flags.out, result.folder);
    try {
      await makeDirectory(folder);
      workbookPath = join(folder, result.workbookName);
      await writeFileWhole(workbookPath, result.workbook);
    } catch (error) {
      throw new RunError(`cannot write the workbook under ${flags.out}: ${(error as Error).message}`);
    }
  }
  const writeMs = performance.now() - t0;
  const t1 = performance.now();
  const mcRun = mcRequest ? await runMonteCarlo(result, mcRequest) : null;
  const mc = mcRun?.mc ?? null;
  const monteCarloMs = performance.now() - t1;
  const inputWarnings = [...data.warnings, ...(ltf?.warnings ?? [])];

  if (flags.json) {
    const round = (x: number) => Math.round(x * 1000) / 1000;
    printJson({
      ...jsonHeader('backtest'),
      ...backtestResultJson(result),
      input: {
        data: data.path,
        format: data.file.format,
        candles: data.file.candles.length,
        symbol: data.symbol,
        symbol_from: data.symbolFrom,
        timeframe: result.timeframe,
        timeframe_from: data.timeframeFrom ?? null,
        ltf: ltf ? ltf.path : null,
        warnings: inputWarnings,
      },
      workbook_path: workbookPath,
      ...(mcRequest ? { monte_carlo: mc ? { target: mcRequest.target, ...mc } : null } : {}),
      timing: {
        load_ms: round(data.loadMs + (ltf?.loadMs ?? 0)), ...result.timing, write_ms: round(writeMs),
        ...(mcRequest ? { monte_carlo_ms: round(monteCarloMs), monte_carlo_threads: mcRun?.threads ?? 0 } : {}), total_ms: round(performance.now() - started),
      },
    });
    return;
  }
  for (const w of inputWarnings) warn(w);
  printSummary(result, { loadMs: data.loadMs + (ltf?.loadMs ?? 0), candles: data.file.candles.length, path: data.path });
  if (mcRequest) printMonteCarlo(mc, mcRequest);
  if (workbookPath) print(`\nWorkbook: ${workbookPath}`);
}
