import { Option, type Command } from 'commander';
import { addCostOptions, addReadOptions, collect, examples, lazy } from './shared.js';
import type { BacktestFlags } from '../actions/backtest.js';

export function registerBacktestCommand(program: Command): void {
  const command = program
    .command('backtest')
    .description('run one strategy on one candle file: a summary (global, sessions, golden hours), the JSON result, or the workbook')
    .requiredOption('--data <file>', 'candle file (.csv, .xlsx, .json, .arrow)')
    .requiredOption('--strategy <key>', "official strategy key (see 'bt strategies')")
    .option('--symbol <symbol>', 'instrument (default: from the file, then its name {symbol}_{timeframe}_...)')
    .option('--timeframe <tf>', 'expected timeframe, checked against the candles (default: inferred)')
    .option('--pip-size <price>', 'price distance of one pip, for symbols outside the catalogue')
    .option('--param <name=value>', 'strategy parameter (repeatable; see bt params KEY)', collect)
    .option('--params-json <json>', 'strategy parameters as a JSON object')
    .option('--sl <pips>', 'stop distance in pips (required with --sl-mode external)')
    .option('--tp1 <pips>', 'first target in pips (internal: default 1R)')
    .option('--tp2 <pips>', 'second target in pips (default: 2 x tp1, internal: 2R)')
    .addOption(new Option('--sl-mode <mode>', 'external: SL/TP in pips from the order price; internal: SL at the zone edge').choices(['external', 'internal']).default('external'))
    .option('--from <date>', 'first day traded, UTC (YYYY-MM-DD or YYYY-MM-DDTHH:MM); earlier candles are warm-up')
    .option('--to <date>', 'last day traded, UTC, inclusive; later candles are not used')
    .option('--ltf <file>', 'lower-timeframe candles of the same symbol, to resolve candles that hit SL and TP')
    .option('--out <dir>', 'write the workbook to DIR/{folder}/{folder}.xlsx')
    .option('--json', 'print the result as JSON (docs/cli.md) instead of the summary')
    .option('--monte-carlo [runs]', 'Monte Carlo on the R sequence (default 10,000 runs): drawdown, final R, losing streak, risk of ruin')
    .option('--mc-method <method>', 'bootstrap (default: trades drawn with replacement) or shuffle (the same trades reordered)')
    .option('--mc-seed <n>', 'seed of the draws (default 1): the same seed gives the same result')
    .option('--mc-risk <percent>', 'equity risked per trade for the risk of ruin (default 1)')
    .option('--mc-ruin <percent>', 'loss of the starting equity that counts as ruin (default 50)')
    .option('--mc-target <target>', 'R at tp1 (default) or tp2')
    .option('--mc-threads <n>', 'threads for a bootstrap (default: the available cores when the runs are long enough to pay off; same result on any number)');
  addCostOptions(command);
  addReadOptions(command, 'the candle files');
  examples(command, [
    'bt backtest --data fixtures/official/EURUSD_H1_2017-2018.csv --strategy fvg_pullback_multi --sl 20 --tp1 20 --tp2 40',
    'bt backtest --data EURUSD_15M.csv --utc-offset +02:00 --strategy ob_pullback_pure_rsi --param rsi_threshold=35 --sl 10 --tp1 10 --from 2023-01-01 --to 2023-01-31',
    'bt backtest --data XAUUSD_M5_jan.csv --strategy englobante_entry --sl-mode internal --out results/',
    'bt backtest --data EURUSD_H1.csv --strategy fvg_impulsive --sl 15 --tp1 15 --json | jq .golden_hours',
    'bt backtest --data EURUSD_15M.csv --utc-offset +02:00 --strategy fvg_impulsive --sl 10 --tp1 10 --spread-from-data --commission-per-lot 7 --account-currency USD --slippage 0.5',
    'bt backtest --data EURUSD_H1.csv --strategy englobante_entry --sl 20 --tp1 20 --spread typical --monte-carlo --mc-risk 1',
  ]);
  command.action(lazy(async () => (await import('../actions/backtest.js')).backtestCommand));
}
