import type { Command } from 'commander';
import { examples, lazy } from './shared.js';

export function registerParamsCommand(program: Command): void {
  const command = program
    .command('params')
    .description("a strategy's parameters: type, default, bounds, meaning (aliases are listed in docs/parameters.md)")
    .argument('<key>', 'official strategy key')
    .option('--json', 'print the parameters as JSON');
  examples(command, ['bt params fvg_pullback_multi_rsi', 'bt params englobante_entry --json']);
  command.action(lazy(async () => (await import('../actions/catalogue.js')).paramsCommand));
}
