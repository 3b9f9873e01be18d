import type { Command } from 'commander';
import { examples, lazy } from './shared.js';

export function registerSymbolsCommand(program: Command): void {
  const command = program
    .command('symbols')
    .description('list the catalogue symbols with their asset class and pip size')
    .option('--class <assetClass>', 'only one asset class: forex, metal, energy, agriculture, index, crypto')
    .option('--json', 'print the symbols as JSON');
  examples(command, ['bt symbols', 'bt symbols --class metal', 'bt symbols --json']);
  command.action(lazy(async () => (await import('../actions/catalogue.js')).symbolsCommand));
}
