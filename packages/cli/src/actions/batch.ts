// `bt batch PLAN`: expand the plan, run it on worker threads with progress (Ink in a terminal,
// plain lines otherwise, both on stderr), then a ranked table (or JSON) and a CSV of every run.
import { availableParallelism } from 'node:os';
import { formatPercentCell, LABELS } from '@bt/core/format';
import { batchWorkersInMemory, dataSizes } from '../batch/memory.js';
import { expandPlan } from '../batch/plan.js';
import { runPool, type Progress } from '../batch/pool.js';
import { progressLine } from '../batch/progress-text.js';
import { RANK_METRICS, rankRuns, runsCsv } from '../batch/rank.js';
import type { RunRow } from '../batch/run-row.js';
import { quoted, UsageError } from '../errors.js';
import { parseConcurrency, parsePositiveInt } from '../options.js';
import { checkWritable, refuseInputAsOutput, requireRegularFile } from '../paths.js';
import { count, jsonHeader, print, printJson, renderTable, styles, writeOutput } from '../output.js';
import { startReporter } from '../progress/reporter.js';
import { readPlanFile } from '../plan-file.js';

/** The flags of the command (commands/batch.ts declares them). */
export interface BatchFlags {
  concurrency?: string;
  csv?: string;
  json?: boolean;
  top: string;
  rankBy: string;
  progress?: boolean;
}

const pct = (x: number | null) => (x === null ? '' : formatPercentCell(x));
const num = (x: number | null, digits = 2) => (x === null ? '' : x.toFixed(digits));

function rankedTable(ranked: readonly RunRow[], gridParams: readonly string[], top: number): string {
  const s = styles();
  const headers = ['#', 'run', 'strategy', 'data', ...(gridParams.length ? ['grid'] : []), LABELS.trades, LABELS.resolved, LABELS.winrateTp1, LABELS.ciLowTp1, LABELS.ciHighTp1, LABELS.winrateTp2, LABELS.expectancyTp1, LABELS.profitFactorTp1];
  const rows = ranked.slice(0, top).map((r, i) => [
    String(i + 1), String(r.id), r.strategy, r.data,
    ...(gridParams.length ? [Object.entries(r.grid).map(([k, v]) => `${k}=${v}`).join(' ')] : []),
    String(r.trades), String(r.resolved), pct(r.winrate_tp1), pct(r.winrate_tp1_low), pct(r.winrate_tp1_high), pct(r.winrate_tp2), num(r.expectancy_tp1), num(r.profit_factor_tp1),
  ]);
  return renderTable(headers, rows, { header: s.dim });
}

export async function batchCommand(planPath: string, flags: BatchFlags): Promise<void> {
  const concurrency = parseConcurrency(flags.concurrency, availableParallelism());
  const top = parsePositiveInt('--top', flags.top);
  if (!Object.hasOwn(RANK_METRICS, flags.rankBy)) throw new UsageError(`invalid --rank-by: ${quoted(flags.rankBy)} (expected one of ${Object.keys(RANK_METRICS).join(', ')})`);
  if (flags.csv === '-' && flags.json) throw new UsageError('--csv - and --json both write to stdout: choose one');

  const plan = expandPlan(await readPlanFile(planPath), planPath);
  for (const data of plan.data) await requireRegularFile(data.path, `data of plan ${planPath}`, data.label);
  const csvPath = flags.csv ?? `${plan.name}-runs.csv`;
  await refuseInputAsOutput('--csv', csvPath, [planPath, ...plan.data.map((d) => d.path)]);
  await checkWritable(csvPath);
  // Each worker keeps copies of two data files: no more workers than those fit in memory, measured
  // on the files' candles (one worker needs no measure: it runs whatever the size).
  const wanted = Math.min(concurrency, plan.runs.length);
  const workers = wanted > 1 ? batchWorkersInMemory(flags.concurrency, wanted, await dataSizes(plan.data)) : wanted;

  const title = `bt batch ${planPath} · ${count(plan.runs.length)} runs (${plan.strategies.length} strategies × ${plan.data.length} data files${plan.gridParams.length ? ' × grid' : ''})`;
  const reporter = await startReporter<Progress>({
    title,
    enabled: flags.progress !== false,
    view: async (progress, color) => {
      const [{ createElement }, { BatchProgress }] = await Promise.all([import('react'), import('../batch/progress-view.js')]);
      return createElement(BatchProgress, { title, progress, color });
    },
    line: progressLine,
    finished: (p) => p.done >= p.total,
  });
  let outcome: Awaited<ReturnType<typeof runPool>>;
  try {
    outcome = await runPool(plan, { concurrency: workers, onProgress: (p) => reporter?.update(p) });
  } finally {
    await reporter?.close();
  }
  const { rows, elapsedMs } = outcome;
  const failed = rows.filter((r) => !r.ok);
  const candles = rows.reduce((n, r) => n + r.candles, 0);
  const seconds = elapsedMs / 1000;
  const runsPerS = rows.length / seconds;
  const candlesPerS = candles / seconds;

  const csv = runsCsv(rows, plan.gridParams);
  await writeOutput(csvPath, csv);

  const ranked = rankRuns(rows, flags.rankBy);
  if (flags.json) {
    printJson({
      ...jsonHeader('batch'),
      plan: planPath,
      name: plan.name,
      runs_total: rows.length,
      ok: rows.length - failed.length,
      failed: failed.length,
      workers,
      elapsed_ms: Math.round(elapsedMs),
      runs_per_s: Math.round(runsPerS * 100) / 100,
      candles_per_s: Math.round(candlesPerS),
      rank_by: flags.rankBy,
      csv: csvPath === '-' ? null : csvPath,
      ranking: ranked.map((r) => r.id),
      runs: rows,
    });
  } else if (csvPath !== '-') {
    const s = styles();
    print(s.bold(`Best ${Math.min(top, ranked.length)} of ${count(ranked.length)} runs by ${flags.rankBy}`));
    print(rankedTable(ranked, plan.gridParams, top));
    print('');
    print(`${count(rows.length)} runs in ${seconds.toFixed(1)} s on ${workers} worker${workers === 1 ? '' : 's'}: ${count(rows.length - failed.length)} ok, ${count(failed.length)} failed · ${runsPerS.toFixed(1)} runs/s · ${candlesPerS >= 1e6 ? `${(candlesPerS / 1e6).toFixed(2)} M` : count(Math.round(candlesPerS))} candles/s`);
    print(`CSV of every run: ${csvPath}`);
    for (const r of failed.slice(0, 10)) print(s.red(`failed run ${r.id} (${r.strategy} · ${r.data}): ${r.error}`));
    if (failed.length > 10) print(s.red(`… and ${failed.length - 10} more failed runs (see the CSV)`));
  }
  if (failed.length > 0) {
    process.stderr.write(`bt: ${failed.length} of ${rows.length} runs failed\n`);
    process.exitCode = 1;
  }
}
