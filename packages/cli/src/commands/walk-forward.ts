import type { Command } from 'commander';
import type { WalkForwardFlags } from '../actions/walk-forward.js';
import { addSearchOptions } from './optimize.js';
import { examples, lazy } from './shared.js';

export function registerWalkForwardCommand(program: Command): void {
  const command = program
    .command('walk-forward')
    .description('choose parameters on each in-sample window and judge them only on the out-of-sample window after it (rolling or anchored); how much survives out of sample');
  addSearchOptions(command)
    .requiredOption('--in-sample <duration>', 'in-sample window: 180d, 12w, 36h, 30min')
    .requiredOption('--out-of-sample <duration>', 'out-of-sample window after each in-sample one')
    .option('--step <duration>', 'from one out-of-sample window to the next (default: its length)')
    .option('--anchored', 'every in-sample window starts at the first candle (default: rolling windows of the same length)')
    .option('--csv <file>', 'CSV of the folds (default: {data}_{strategy}-walk-forward.csv; - for stdout)');
  examples(command, [
    'bt walk-forward --data EURUSD_H1_2017-2018.csv --strategy englobante_entry --sl 10,20,30 --tp1 10,20,40 --in-sample 60d --out-of-sample 30d',
    'bt walk-forward --data EURUSD_M5_2024.csv --strategy fvg_pullback_multi --param min_wait_candles=1..5 --sl 10 --tp1 10..30:5 --in-sample 12w --out-of-sample 4w --anchored --json',
  ]);
  command.action(lazy(async () => (await import('../actions/walk-forward.js')).walkForwardCommand as (flags: WalkForwardFlags) => Promise<void>));
}
