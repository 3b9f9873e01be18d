import type { Command } from 'commander';
import { examples, lazy } from './shared.js';
import type { BatchFlags } from '../actions/batch.js';

export function registerBatchCommand(program: Command): void {
  const command = program
    .command('batch')
    .description('run a plan (strategies x data files x parameter grids) on worker threads, then rank the runs and write a CSV of all of them')
    .argument('<plan>', 'plan file, JSON or YAML (docs/cli.md "Batch plans")')
    .option('--concurrency <n>', 'worker threads, 1 to 64 (default: the available cores)')
    .option('--csv <file>', 'CSV of every run (default: {plan name}-runs.csv in the current folder; - for stdout)')
    .option('--top <n>', 'rows of the ranked table', '20')
    .option('--rank-by <metric>', 'winrate_tp1_low (Wilson lower bound, default), winrate_tp1, winrate_tp2_low, winrate_tp2, expectancy_tp1, expectancy_tp2, profit_factor_tp1, trades', 'winrate_tp1_low')
    .option('--no-progress', 'no progress view or lines')
    .option('--json', 'print every run as JSON instead of the ranked table');
  examples(command, [
    'bt batch plans/all-strategies.yaml',
    'bt batch plan.json --concurrency 2 --csv runs.csv --top 10',
    'bt batch plan.yaml --rank-by expectancy_tp1 --json > runs.json',
  ]);
  command.action(lazy(async () => (await import('../actions/batch.js')).batchCommand));
}
