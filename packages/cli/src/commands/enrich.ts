import type { Command } from 'commander';
import { addReadOptions, examples, lazy } from './shared.js';
import type { EnrichFlags } from '../actions/enrich.js';

export function registerEnrichCommand(program: Command): void {
  const command = program
    .command('enrich')
    .description('write the candles with indicator columns (RSI_n: Wilder; EMA_n: seeded with the SMA) in the official format')
    .argument('<file>', 'candle file')
    .requiredOption('-o, --output <file>', 'output file; the extension picks the format (.csv official CSV, .xlsx, .arrow, .json)')
    .option('--rsi <periods>', 'RSI periods, comma-separated', '14')
    .option('--no-rsi', 'no RSI column')
    .option('--ema <periods>', 'EMA periods, comma-separated', '50,200')
    .option('--no-ema', 'no EMA column');
  addReadOptions(command);
  examples(command, [
    'bt enrich EURUSD_H1.csv -o EURUSD_H1_enriched.csv',
    'bt enrich EURUSD_H1.csv -o out.csv --rsi 7,14 --ema 20,50,200',
    'bt enrich EURUSD_15M.csv --utc-offset +02:00 -o EURUSD_M15.csv --no-rsi',
  ]);
  command.action(lazy(async () => (await import('../actions/enrich.js')).enrichCommand));
}
