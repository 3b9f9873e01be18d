/**
 * A backtest answer as issue 6's endpoints will give it, built with core itself (statistics,
 * sheets, workbook) from deterministic synthetic trades, for the results test until the real
 * /api/run_backtest exists.
 */
import { computeStatistics, sessionForHour } from '@bt/core/stats';
import type { Outcome, TargetResult, Trade } from '@bt/core';
import { buildReport, reportSheets, resultFolderName, workbookFileName } from '@bt/core/report';

const PIP = 0.0001;

function lcg(seed: number) {
  let state = seed >>> 0;
  return () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

export function syntheticTrades(count: number, fromMs: number, toMs: number): Trade[] {
  const random = lcg(42);
  const trades: Trade[] = [];
  for (let id = 1; id <= count; id++) {
    let entryTime = Math.floor((fromMs + ((toMs - fromMs) * id) / (count + 1)) / 300_000) * 300_000;
    // Half the trades in the London morning, as order-block setups cluster there in real data.
    if (id % 2 === 0) entryTime = entryTime - (entryTime % 86_400_000) + (8 + (id % 5)) * 3_600_000;
    const hour = new Date(entryTime).getUTCHours();
    // London hours win more often, so the golden hours have something to show.
    const p = hour >= 8 && hour <= 12 ? 0.7 : 0.45;
    const roll = random();
    const [tp1Result, tp2Result, outcome]: [TargetResult, TargetResult, Outcome] =
      roll < p * 0.5 ? ['win', 'win', 'tp2'] : roll < p ? ['win', 'loss', 'tp1'] : ['loss', 'loss', 'sl'];
    const price = 1.1;
    trades.push({
      id,
      side: random() < 0.5 ? 'buy' : 'sell',
      signalTime: entryTime - 300_000,
      entryTime,
      entryIndex: id * 10,
      orderPrice: price,
      entryPrice: price,
      sl: price - 10 * PIP,
      tp1: price + 10 * PIP,
      tp2: price + 20 * PIP,
      riskPips: 10,
      tp1Result,
      tp2Result,
      outcome,
      tp1Time: tp1Result === 'win' ? entryTime + 900_000 : null,
      tp2Time: tp2Result === 'win' ? entryTime + 1_800_000 : null,
      slTime: outcome === 'sl' || tp2Result === 'loss' ? entryTime + 1_200_000 : null,
      mfePips: tp1Result === 'win' ? 15 : 4,
      maePips: outcome === 'sl' ? 10 : 3,
      rTp1: tp1Result === 'win' ? 1 : -1,
      rTp2: tp2Result === 'win' ? 2 : -1,
      ambiguous: false,
      resolvedTp1Result: null,
      resolvedTp2Result: null,
      hour,
      weekday: (new Date(entryTime).getUTCDay() + 6) % 7,
      session: sessionForHour(hour),
    });
  }
  return trades;
}

export interface FixtureResult {
  folder: string;
  file: string;
  answer: Record<string, unknown>;
  sheets: Map<string, { headers: string[]; rows: unknown[][] }>;
  workbook: Uint8Array;
}

export async function backtestFixture(input: { symbol: string; timeframe: string; strategy: string; start: string; end: string; slPips: number; creditsRemaining: number }): Promise<FixtureResult> {
  const from = Date.parse(`${input.start}T00:00:00Z`);
  const to = Date.parse(`${input.end}T23:59:00Z`);
  const trades = syntheticTrades(240, from, to);
  const statistics = computeStatistics(trades);
  const folder = resultFolderName({ symbol: input.symbol, timeframe: input.timeframe, strategy: input.strategy, from: input.start, to: input.end, slPips: input.slPips });
  const file = workbookFileName(folder);
  const config = [
    { metric: 'symbol', value: input.symbol },
    { metric: 'timeframe', value: input.timeframe },
    { metric: 'strategy', value: input.strategy },
    { metric: 'start_date', value: input.start },
    { metric: 'end_date', value: input.end },
    { metric: 'sl_mode', value: 'external' },
    { metric: 'sl_pips', value: input.slPips },
    { metric: 'run_id', value: 'run-e2e' },
    { metric: 'user_id', value: 1 },
    { metric: 'run_seq', value: 1 },
  ];
  const specs = reportSheets({ config, statistics, trades, pipSize: PIP });
  const sheets = new Map(specs.map((s) => [s.name as string, { headers: [...s.headers], rows: JSON.parse(JSON.stringify(s.rows)) as unknown[][] }]));
  const workbook = await buildReport({ config, statistics, trades, pipSize: PIP });
  return {
    folder,
    file,
    sheets,
    workbook,
    answer: { xlsx_result: `results/1/${folder}/${file}`, credits_remaining: input.creditsRemaining, golden_hours: statistics.goldenHours, statistics },
  };
}
