import type { Command } from 'commander';
import { examples, lazy } from './shared.js';

export function registerStrategiesCommand(program: Command): void {
  const command = program
    .command('strategies')
    .description('list the 24 official strategies: key, family, entry mode, filters, label')
    .option('--json', 'print the catalogue entries as JSON');
  examples(command, ['bt strategies', 'bt strategies --json | jq -r ".strategies[].key"']);
  command.action(lazy(async () => (await import('../actions/catalogue.js')).strategiesCommand));
}
