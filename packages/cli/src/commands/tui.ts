import type { Command } from 'commander';
import { examples, lazy } from './shared.js';
import type { TuiFlags } from '../actions/tui.js';

export function registerTuiCommand(program: Command): void {
  const command = program
    .command('tui')
    .description('interactive terminal app: pick a data file, symbol, strategy and parameters, run, browse the results with the keyboard')
    .option('--data <file>', 'start with this candle file')
    .option('--dir <dir>', 'folder searched for candle files', '.')
    .option('--utc-offset <offset>', 'UTC offset of times written without one (+02:00, UTC)');
  examples(command, ['bt tui', 'bt tui --dir fixtures', 'bt tui --data fixtures/official/EURUSD_H1_2017-2018.csv']);
  command.action(lazy(async () => (await import('../actions/tui.js')).tuiCommand));
}
