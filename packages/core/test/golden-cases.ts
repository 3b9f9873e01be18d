// The golden scenarios (not a test file): every official strategy on real fixtures, results
// rounded so that only a change of rules, not float noise, changes them.
import { join } from 'node:path';
import { runBacktest, STRATEGIES, ENGINE_VERSION, type BacktestRequest, type Trade } from '@bt/core';
import { readCandlesFile } from '@bt/core/node';

export const fixtures = join(import.meta.dirname, '../../../fixtures');
export const goldenDir = join(fixtures, 'golden');

export interface GoldenScenario {
  readonly name: string;
  readonly file: string;
  readonly read: { symbol: string; utcOffset?: string };
  readonly request: Omit<BacktestRequest, 'strategy' | 'params'>;
  /** Parameters per entry mode (unknown ones would be refused). */
  readonly params?: { pullback: Record<string, unknown>; signal: Record<string, unknown> };
}

export const SCENARIOS: readonly GoldenScenario[] = [
  {
    name: 'eurusd-h1',
    file: 'official/EURUSD_H1_2017-2018.csv',
    read: { symbol: 'EURUSD' },
    request: { symbol: 'EURUSD', slPips: 20, tp1Pips: 20, tp2Pips: 40 },
  },
  {
    name: 'eurusd-h1-internal-confirm',
    file: 'official/EURUSD_H1_2017-2018.csv',
    read: { symbol: 'EURUSD' },
    request: { symbol: 'EURUSD', slMode: 'internal' },
    params: { pullback: { confirm_candle: true, min_overlap_ratio: 0.5, allow_multiple_entries: true, max_touch: 4 }, signal: { confirm_candle: true } },
  },
  {
    name: 'eurusd-m15-2023q1',
    file: 'smc/EURUSD_15M.csv',
    read: { symbol: 'EURUSD', utcOffset: '+02:00' },
    request: { symbol: 'EURUSD', slPips: 10, tp1Pips: 10, tp2Pips: 20, from: Date.UTC(2023, 0, 1), to: Date.UTC(2023, 2, 31, 23, 59) },
  },
];

export const TRADE_COLUMNS = [
  'entryTime', 'side', 'signalTime', 'orderPrice', 'entryPrice', 'sl', 'tp1', 'tp2', 'outcome',
  'tp1Time', 'tp2Time', 'slTime', 'mfePips', 'maePips', 'rTp1', 'rTp2', 'ambiguous',
] as const;

const sig = (x: number) => Number(x.toPrecision(10));
const pips = (x: number) => Math.round(x * 1e6) / 1e6;

function tradeRow(t: Trade): (string | number | null)[] {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString().slice(0, 16));
  return [
    iso(t.entryTime), t.side, iso(t.signalTime), sig(t.orderPrice), sig(t.entryPrice), sig(t.sl), sig(t.tp1), sig(t.tp2), t.outcome,
    iso(t.tp1Time), iso(t.tp2Time), iso(t.slTime), pips(t.mfePips), pips(t.maePips), pips(t.rTp1), pips(t.rTp2), t.ambiguous ? 1 : 0,
  ];
}

export interface GoldenStrategy {
  readonly setups: number;
  readonly trades: number;
  readonly tp1Wins: number;
  readonly tp2Wins: number;
  readonly sl: number;
  readonly open: number;
  readonly ambiguous: number;
  readonly winrateTp1: number | null;
  readonly expectancyTp1: number | null;
  readonly rows: (string | number | null)[][];
}

export interface GoldenFile {
  readonly scenario: string;
  readonly engineVersion: string;
  readonly fixture: string;
  readonly request: unknown;
  readonly columns: readonly string[];
  readonly strategies: Record<string, GoldenStrategy>;
  /** Why the file last changed (UPDATE_GOLDEN=1 GOLDEN_NOTE="..."). */
  readonly history: readonly { engineVersion: string; note: string }[];
}

const r6 = (x: number | null) => (x === null ? null : Math.round(x * 1e6) / 1e6);

export async function computeGolden(s: GoldenScenario): Promise<Omit<GoldenFile, 'history'>> {
  const { candles } = await readCandlesFile(join(fixtures, s.file), s.read);
  const strategies: Record<string, GoldenStrategy> = {};
  for (const def of STRATEGIES) {
    const params = s.params?.[def.entryMode];
    const r = await runBacktest(candles, { ...s.request, strategy: def.key, params });
    const g = r.statistics.global;
    strategies[def.key] = {
      setups: r.counts.setups,
      trades: g.trades,
      tp1Wins: g.tp1Wins,
      tp2Wins: g.tp2Wins,
      sl: g.sl,
      open: g.open,
      ambiguous: g.ambiguous,
      winrateTp1: r6(g.tp1.winrate),
      expectancyTp1: r6(g.tp1.expectancyR),
      rows: r.trades.map(tradeRow),
    };
  }
  return { scenario: s.name, engineVersion: ENGINE_VERSION, fixture: s.file, request: { ...s.request, params: s.params ?? null }, columns: TRADE_COLUMNS, strategies };
}

/** One line per trade keeps diffs of the JSON readable. */
export function formatGolden(file: GoldenFile): string {
  const lines: string[] = ['{'];
  lines.push(`  "scenario": ${JSON.stringify(file.scenario)},`);
  lines.push(`  "engineVersion": ${JSON.stringify(file.engineVersion)},`);
  lines.push(`  "fixture": ${JSON.stringify(file.fixture)},`);
  lines.push(`  "request": ${JSON.stringify(file.request)},`);
  lines.push(`  "history": ${JSON.stringify(file.history)},`);
  lines.push(`  "columns": ${JSON.stringify(file.columns)},`);
  lines.push('  "strategies": {');
  const keys = Object.keys(file.strategies);
  keys.forEach((key, k) => {
    const { rows, ...summary } = file.strategies[key];
    lines.push(`    ${JSON.stringify(key)}: {`);
    for (const [name, value] of Object.entries(summary)) lines.push(`      ${JSON.stringify(name)}: ${JSON.stringify(value)},`);
    lines.push('      "rows": [');
    rows.forEach((row, i) => lines.push(`        ${JSON.stringify(row)}${i < rows.length - 1 ? ',' : ''}`));
    lines.push('      ]');
    lines.push(`    }${k < keys.length - 1 ? ',' : ''}`);
  });
  lines.push('  }', '}');
  return `${lines.join('\n')}\n`;
}
