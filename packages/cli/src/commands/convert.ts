import { Option, type Command } from 'commander';
import { addReadOptions, examples, lazy } from './shared.js';
import type { ConvertFlags } from '../actions/convert.js';

export function registerConvertCommand(program: Command): void {
  const command = program
    .command('convert')
    .description('convert candles between CSV, XLSX and Arrow IPC (and freqtrade JSON); the output is checked like any input')
    .argument('<in>', 'candle file to read (any layout bt reads)')
    .argument('<out>', 'file to write: .csv (official CSV), .xlsx, .arrow/.ipc/.feather (IPC file), .arrows (IPC stream), .json (freqtrade)')
    .option('--symbol <symbol>', 'symbol to record (Arrow metadata, CSV symbol row source)')
    .option('--timeframe <tf>', 'expected timeframe, checked against the candles')
    .addOption(new Option('--dates <kind>', 'XLSX output: dates as official text or Excel date cells (UTC)').choices(['text', 'excel']).default('text'));
  addReadOptions(command, 'the input');
  examples(command, [
    'bt convert EURUSD_H1.csv EURUSD_H1.arrow',
    'bt convert EURUSD_H1.arrow EURUSD_H1.xlsx --dates excel',
    'bt convert 2006-min-005.txt STOXX_M5.csv --utc-offset +01:00',
  ]);
  command.action(lazy(async () => (await import('../actions/convert.js')).convertCommand));
}
