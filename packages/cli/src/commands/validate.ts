import type { Command } from 'commander';
import { addReadOptions, examples, lazy } from './shared.js';
import type { ValidateFlags } from '../actions/validate.js';

export function registerValidateCommand(program: Command): void {
  const command = program
    .command('validate')
    .description('check candle files: every problem with its line and column, and how to fix it; exit 1 if any file has one')
    .argument('<files...>', 'candle files (.csv, .txt, .xlsx, .json, .arrow)')
    .option('--timeframe <tf>', 'expected timeframe (default: inferred from the most common step)')
    .option('--symbol <symbol>', 'expected symbol (reported when the file names another)')
    .option('--max-problems <n>', 'problems listed per file before the rest are only counted', '1000')
    .option('--json', 'print the results as JSON');
  addReadOptions(command, 'the files');
  examples(command, [
    'bt validate fixtures/official/EURUSD_H1_2017-2018.csv',
    'bt validate data/*.csv --timeframe M5',
    'bt validate EURUSD_15M.csv --utc-offset +02:00 --json',
  ]);
  command.action(lazy(async () => (await import('../actions/validate.js')).validateCommand));
}
