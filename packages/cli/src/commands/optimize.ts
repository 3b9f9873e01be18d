import { Option, type Command } from 'commander';
import type { OptimizeFlags } from '../actions/optimize.js';
import { addCostOptions, addReadOptions, collect, examples, lazy } from './shared.js';

/** Flags bt optimize and bt walk-forward share: data, strategy, the space, ranking, workers. */
export function addSearchOptions(command: Command): Command {
  command
    .requiredOption('--data <file>', 'candle file (.csv, .xlsx, .json, .arrow)')
    .requiredOption('--strategy <key>', "official strategy key (see 'bt strategies')")
    .option('--symbol <symbol>', 'instrument (default: from the file, then its name)')
    .option('--timeframe <tf>', 'expected timeframe, checked against the candles')
    .option('--pip-size <price>', 'price distance of one pip, for symbols outside the catalogue')
    .option('--param <name=values>', 'a parameter and its values: name=1,2,3 or name=1..5 or name=0.1..0.5:0.1 (repeatable)', collect)
    .option('--sl <pips>', 'stop distance(s) in pips: 20 or 10,15,20 or 10..30:5')
    .option('--tp1 <pips>', 'first target(s) in pips')
    .option('--tp2 <pips>', 'second target(s) in pips (default: 2 x tp1)')
    .addOption(new Option('--sl-mode <mode>', 'external: SL/TP in pips; internal: SL at the zone edge').choices(['external', 'internal']).default('external'))
    .option('--from <date>', 'first day of the period, UTC; earlier candles are warm-up')
    .option('--to <date>', 'last day of the period, UTC, inclusive')
    .option('--objective <name>', 'expectancy (R, default), profit_factor, winrate_low (Wilson 95 % lower bound of the win rate)', 'expectancy')
    .option('--target <target>', 'the target judged: tp1 (default) or tp2', 'tp1')
    .option('--min-trades <n>', 'fewest resolved trades for a combination to rank', '30')
    .option('--random <n>', 'evaluate n combinations drawn at random instead of the whole grid')
    .option('--seed <n>', 'seed of --random (default 1)')
    .option('--concurrency <n>', 'worker threads, 1 to 64 (default: the available cores)')
    .option('--no-progress', 'no progress view or lines')
    .option('--json', 'print the result as JSON (docs/cli.md)');
  addCostOptions(command);
  return addReadOptions(command, 'the candle file');
}

export function registerOptimizeCommand(program: Command): void {
  const command = program
    .command('optimize')
    .description("search a strategy's parameters and exits (grid or random) on worker threads; a ranked table, a CSV of every combination and a heatmap of two of them");
  addSearchOptions(command)
    .option('--top <n>', 'rows of the ranked table', '20')
    .option('--csv <file>', 'CSV of every combination, best first (default: {data}_{strategy}-optimize.csv; - for stdout)')
    .option('--heatmap <x,y>', 'a heatmap of two dimensions of the space (e.g. sl_pips,tp1_pips): the best objective per cell')
    .option('--heatmap-out <file>', 'where to write it: .svg (default {data}_{strategy}-heatmap.svg) or .html (with the colour legend)');
  examples(command, [
    'bt optimize --data EURUSD_M5_2024.csv --strategy fvg_pullback_multi --param min_wait_candles=1..5 --param max_wait_candles=10,20,30 --sl 5..25:5 --tp1 5..25:5 --heatmap sl_pips,tp1_pips',
    'bt optimize --data EURUSD_H1.csv --strategy ob_pullback_pure_rsi --param rsi_threshold=30..45:5 --sl 20 --tp1 10,20,40 --objective winrate_low --min-trades 50',
    'bt optimize --data XAUUSD_M15.csv --strategy englobante_entry --sl-mode internal --tp1 10..60:10 --random 200 --seed 7 --spread typical --json > best.json',
  ]);
  command.action(lazy(async () => (await import('../actions/optimize.js')).optimizeCommand as (flags: OptimizeFlags) => Promise<void>));
}
