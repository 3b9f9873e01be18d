// The commander program: one registerXCommand per file under commands/, errors and exit codes here.
import { Command, CommanderError } from 'commander';
import { registerAdminCommand } from './commands/admin.js';
import { registerBacktestCommand } from './commands/backtest.js';
import { registerBatchCommand } from './commands/batch.js';
import { registerConvertCommand } from './commands/convert.js';
import { registerEnrichCommand } from './commands/enrich.js';
import { registerOptimizeCommand } from './commands/optimize.js';
import { registerParamsCommand } from './commands/params.js';
import { registerRegressCommand } from './commands/regress.js';
import { registerReportCommand } from './commands/report.js';
import { registerStrategiesCommand } from './commands/strategies.js';
import { registerSymbolsCommand } from './commands/symbols.js';
import { registerTuiCommand } from './commands/tui.js';
import { registerValidateCommand } from './commands/validate.js';
import { registerWalkForwardCommand } from './commands/walk-forward.js';
import { registerZonesCommand } from './commands/zones.js';
import { exitCodeOf, printError } from './errors.js';
import { CLI_VERSION } from './version.js';

export function createProgram(): Command {
  const program = new Command('bt')
    .description('Backtests of entry strategies (order blocks, fair value gaps, engulfing) on candle files, over @bt/core.')
    .version(CLI_VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .configureOutput({ outputError: (text, write) => write(`bt: ${text.replace(/^error: /, '')}`) })
    .showHelpAfterError("(run 'bt help' or add --help for usage)")
    .exitOverride();
  program.addHelpText(
    'after',
    `
Exit codes: 0 success, 1 failed run or bad data, 2 usage error.
Every command accepts --help; see docs/cli.md for JSON outputs and plan files.

Examples:
  $ bt backtest --data EURUSD_H1_2024.csv --strategy fvg_pullback_multi --sl 20 --tp1 20
  $ bt batch plan.yaml --concurrency 2
  $ bt optimize --data EURUSD_M5.csv --strategy fvg_pullback_multi --sl 5..25:5 --tp1 5..25:5 --heatmap sl_pips,tp1_pips
  $ bt validate data/*.csv
  $ bt strategies --json
`,
  );
  registerBacktestCommand(program);
  registerBatchCommand(program);
  registerOptimizeCommand(program);
  registerWalkForwardCommand(program);
  registerValidateCommand(program);
  registerEnrichCommand(program);
  registerConvertCommand(program);
  registerZonesCommand(program);
  registerStrategiesCommand(program);
  registerParamsCommand(program);
  registerSymbolsCommand(program);
  registerReportCommand(program);
  registerRegressCommand(program);
  registerTuiCommand(program);
  registerAdminCommand(program);
  return program;
}

/** Commander's own outcomes: help and version are successes, the rest usage errors (already printed). */
function commanderExit(error: CommanderError): number {
  if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
  // `bt help CMD` is a success; help shown because no command was given is a usage error.
  if (error.code === 'commander.help') return error.exitCode === 0 ? 0 : 2;
  return 2;
}

/** Runs `bt` with its arguments (without `node bt`) and returns the exit code. */
export async function main(args: readonly string[]): Promise<number> {
  const program = createProgram();
  try {
    await program.parseAsync([...args], { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) return commanderExit(error);
    printError(error);
    return exitCodeOf(error);
  }
}
