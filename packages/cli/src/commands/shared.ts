// Option groups several commands share. Registration code imports nothing heavy: commands load
// their work (and @bt/core) only when they run.
import type { Command } from 'commander';

export const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Candle-reading flags (docs/csv-format.md names them in its fixes). */
export function addReadOptions(command: Command, what = 'the file'): Command {
  return command
    .option('--format <layout>', `column layout of ${what}: auto (default), official, custom, metatrader, backtesting, backtrader, freqtrade`)
    .option('--utc-offset <offset>', `UTC offset of times written without one in ${what} (+02:00, -05:00, UTC)`)
    .option('--duplicates <mode>', 'repeated times: error (default) or keep-first');
}

/** `Examples:` block after a command's help. */
export function examples(command: Command, lines: readonly string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);
}

/** Loads a command's work on demand; errors propagate to the program's handler. */
export function lazy<A extends unknown[]>(load: () => Promise<(...args: A) => Promise<void> | void>) {
  return async (...args: A) => {
    const run = await load();
    await run(...args);
  };
}
