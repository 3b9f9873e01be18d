import type { Command } from 'commander';
import { examples, lazy } from './shared.js';
import type { RegressFlags } from '../actions/regress.js';

export function registerRegressCommand(program: Command): void {
  const command = program
    .command('regress')
    .description('run the golden plan and compare every trade with the golden files; exit 1 with a diff table on any drift')
    .argument('[plan]', 'golden plan (JSON or YAML); default: the repository\'s fixtures/golden/plan.json')
    .option('--update', 'rewrite the golden files with the new results (needs --note)')
    .option('--note <text>', 'why the results moved (kept in each changed file\'s history)')
    .option('--scenario <name>', 'only this scenario (repeatable)', (v: string, p: string[] = []) => [...p, v])
    .option('--json', 'print the comparison as JSON');
  examples(command, [
    'bt regress',
    'bt regress --scenario eurusd-h1',
    'bt regress --update --note "min_pips now inclusive"',
    'bt regress my-plan.yaml --json',
  ]);
  command.action(lazy(async () => (await import('../actions/regress.js')).regressCommand));
}
