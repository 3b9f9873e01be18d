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

/** Trading-cost flags (docs/engine.md §13); parsed by costs.ts. */
export function addCostOptions(command: Command): Command {
  return command
    .option('--spread <pips>', "spread in pips on every candle, or 'typical' for the symbol's typical spread (bt symbols --json)")
    .option('--spread-by-hour <values>', '24 spreads in pips, for UTC hours 0 to 23, comma-separated (replaces --spread)')
    .option('--spread-from-data', "use the data's Spread column (MetaTrader points) where it has a value")
    .option('--spread-point <price>', 'price of one point of the Spread column (default: a tenth of a pip)')
    .option('--commission <pips>', 'commission per trade, round trip, in pips')
    .option('--commission-per-lot <amount>', 'commission per trade, round trip, per lot (100,000 units) in the account currency (forex)')
    .option('--account-currency <code>', "with --commission-per-lot: the pair's base or quote currency (USD for EURUSD)")
    .option('--slippage <pips>', 'slippage in pips against market entries and stops');
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
