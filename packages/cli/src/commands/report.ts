import type { Command } from 'commander';
import { examples, lazy } from './shared.js';
import type { ReportFlags } from '../actions/report.js';

export function registerReportCommand(program: Command): void {
  const command = program
    .command('report')
    .description("print a result workbook's sheets (Config, Global, Sessions, Par_Heure, Jour_Semaine, TP2_Global, Trades)")
    .argument('<workbook>', 'a .xlsx result workbook')
    .option('--sheet <name>', 'only this sheet (exact name, else case-insensitive)')
    .option('--limit <n>', 'rows per sheet', '200')
    .option('--offset <n>', 'first row of each sheet (0-based)', '0')
    .option('--json', 'print the sheets as JSON (cells as stored: fractions, ISO dates)');
  examples(command, [
    'bt report results/EURUSD_H1_fvg_pullback_multi_20170419-20180207_sl20/EURUSD_H1_fvg_pullback_multi_20170419-20180207_sl20.xlsx',
    'bt report run.xlsx --sheet Par_Heure',
    'bt report run.xlsx --sheet Trades --offset 200 --limit 100 --json',
  ]);
  command.action(lazy(async () => (await import('../actions/report.js')).reportCommand));
}
