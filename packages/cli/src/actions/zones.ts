// `bt zones`: core's listZones (the zones export of docs/engine.md §10) as a table, CSV or JSON.
import { listZones, type ZoneRecord } from '@bt/core/backtest';
import { findStrategy } from '@bt/core/catalogue';
import { normalizeParams } from '@bt/core/params';
import { csvText } from '../csv.js';
import { loadData } from '../data.js';
import { asUsage, quoted, RunError, UsageError } from '../errors.js';
import { count, jsonHeader, print, printJson, renderTable, styles, warn } from '../output.js';
import { checkStrategy, rawParams } from '../request.js';
import { checkPipSize } from '../summary.js';

/** The flags of the command (commands/zones.ts declares them). */
export interface ZonesFlags {
  data: string;
  pattern: string;
  param?: string[];
  symbol?: string;
  timeframe?: string;
  pipSize?: string;
  json?: boolean;
  csv?: boolean;
  format?: string;
  utcOffset?: string;
  duplicates?: string;
}

/** Short names of the issue and docs, and core's own names. */
const PATTERNS: Record<string, string> = {
  fvg: 'fvg',
  ob: 'order_block',
  order_block: 'order_block',
  ob_gap: 'order_block_gap',
  order_block_gap: 'order_block_gap',
  engulfing: 'engulfing',
  fvg_impulsive: 'fvg_impulsive',
};

const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString().slice(0, 16).replace('T', ' '));

const CSV_COLUMNS = ['kind', 'side', 'top', 'bottom', 'formed_index', 'formed_at', 'confirmed_index', 'confirmed_at', 'filled_index', 'filled_at', 'mitigated_index', 'mitigated_at'] as const;

function csvCell(zone: ZoneRecord, column: (typeof CSV_COLUMNS)[number]): string {
  const value = zone[column];
  if (value === null) return '';
  if (column.endsWith('_at')) return new Date(value as number).toISOString();
  // Prices as core gives them (not rounded as the other CSVs' figures); words through the CSV rule.
  return typeof value === 'number' ? String(value) : csvText(String(value));
}

export async function zonesCommand(flags: ZonesFlags): Promise<void> {
  if (flags.json && flags.csv) throw new UsageError('give --json or --csv, not both');
  const name = flags.pattern.trim();
  const strategy = findStrategy(name);
  const pattern = strategy ? strategy.key : PATTERNS[name.toLowerCase()];
  if (!pattern) throw new UsageError(`invalid --pattern: ${quoted(flags.pattern)} (expected fvg, ob, ob_gap, engulfing, fvg_impulsive or an official strategy key)`);
  const params = rawParams(flags.param);
  if (strategy) checkStrategy(strategy.key, params);
  else asUsage(() => normalizeParams(params, { defaults: false }));

  const data = await loadData(flags.data, flags);
  for (const w of data.warnings) warn(w);
  const pipSize = flags.pipSize !== undefined || data.symbol ? safePip(data.symbol, flags.pipSize) : undefined;
  let zones: ZoneRecord[];
  try {
    zones = listZones(data.file.candles, pattern, params, { pipSize, symbol: data.symbol });
  } catch (error) {
    const message = (error as Error).message;
    if (message.includes('give an explicit pip size')) throw new UsageError(message.replace('give an explicit pip size', 'give --pip-size or --symbol'));
    throw new RunError(message);
  }

  if (flags.json) {
    printJson({ ...jsonHeader('zones'), data: data.path, symbol: data.symbol ?? null, timeframe: data.timeframe ?? null, pattern, params, count: zones.length, zones });
    return;
  }
  if (flags.csv) {
    const lines = [CSV_COLUMNS.map(csvText).join(','), ...zones.map((z) => CSV_COLUMNS.map((c) => csvCell(z, c)).join(','))];
    process.stdout.write(`${lines.join('\n')}\n`);
    return;
  }
  const s = styles();
  const rows = zones.map((z, i) => [String(i + 1), z.kind, z.side, String(z.top), String(z.bottom), iso(z.formed_at), iso(z.confirmed_at), iso(z.filled_at), iso(z.mitigated_at)]);
  print(renderTable(['#', 'kind', 'side', 'top', 'bottom', 'formed (UTC)', 'confirmed', 'first fill', 'mitigated'], rows, { header: s.dim }));
  const filled = zones.filter((z) => z.filled_index !== null).length;
  print(s.dim(`\n${count(zones.length)} zones (${count(zones.filter((z) => z.side === 'buy').length)} buy, ${count(zones.filter((z) => z.side === 'sell').length)} sell), ${count(filled)} filled · ${pattern} on ${data.path}`));
}

/** A symbol outside the catalogue only matters for min_pips in pips: then listZones asks for a pip size. */
function safePip(symbol: string | undefined, override: string | undefined): number | undefined {
  if (override !== undefined) return checkPipSize(symbol ?? '', override);
  try {
    return checkPipSize(symbol!, undefined);
  } catch {
    return undefined;
  }
}
