import type { Command } from 'commander';
import { addReadOptions, collect, examples, lazy } from './shared.js';
import type { ZonesFlags } from '../actions/zones.js';

export function registerZonesCommand(program: Command): void {
  const command = program
    .command('zones')
    .description('list every zone or signal a pattern detects: formed, confirmed, first fill, mitigation')
    .requiredOption('--data <file>', 'candle file')
    .requiredOption('--pattern <pattern>', 'fvg, ob, ob_gap, engulfing, fvg_impulsive, or an official strategy key')
    .option('--param <name=value>', 'pattern parameter (min_pips, confirm_candle, ob_side, wait rules...; repeatable)', collect)
    .option('--symbol <symbol>', 'instrument, for min_pips in pips (default: from the file or its name)')
    .option('--timeframe <tf>', 'expected timeframe, checked against the candles')
    .option('--pip-size <price>', 'price distance of one pip, for symbols outside the catalogue')
    .option('--json', 'print the zones as JSON')
    .option('--csv', 'print the zones as CSV');
  addReadOptions(command);
  examples(command, [
    'bt zones --data fixtures/smc/EURUSD_15M.csv --utc-offset +02:00 --pattern fvg --csv > fvg.csv',
    'bt zones --data EURUSD_H1.csv --pattern ob --param ob_side=bullish',
    'bt zones --data EURUSD_H1.csv --pattern fvg_pullback_multi_rsi --json',
  ]);
  command.action(lazy(async () => (await import('../actions/zones.js')).zonesCommand));
}
