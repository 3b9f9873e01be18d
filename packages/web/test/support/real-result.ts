/**
 * A real backtest result's sheets, as the results modal gets them from /api/xlsx/sheet: core runs
 * the strategy on a real fixture, writes the workbook, and its reader reads every sheet back.
 */
import { fileURLToPath } from 'node:url';
import { runBacktest } from '@bt/core';
import { readCandlesFile } from '@bt/core/node';
import { openWorkbook } from '@bt/core/report';

export interface RealResult {
  folder: string;
  sheets: Map<string, { headers: string[]; rows: unknown[][] }>;
  /** The statistics and golden hours the workbook was written from (the backtest answer's). */
  statistics: unknown;
  goldenHours: unknown;
}

const FIXTURES = fileURLToPath(new URL('../../../../fixtures/', import.meta.url));

export interface RealRun {
  /** Under fixtures/. */
  file: string;
  /** The file's clock (the seeded library reads MetaTrader exports at +02:00). */
  utcOffset?: string;
  symbol: string;
  strategy: string;
  /** yyyy-mm-dd, both inclusive. */
  start: string;
  end: string;
  slPips: number;
}

export async function realResult(input: RealRun): Promise<RealResult> {
  const { candles } = await readCandlesFile(FIXTURES + input.file, { utcOffset: input.utcOffset });
  const result = await runBacktest(candles, {
    strategy: input.strategy,
    symbol: input.symbol,
    from: Date.parse(`${input.start}T00:00:00Z`),
    to: Date.parse(`${input.end}T23:59:59Z`),
    slPips: input.slPips,
    tp1Pips: input.slPips,
    tp2Pips: input.slPips * 2,
  }, { workbook: true, createdAt: 0 });
  const reader = await openWorkbook(result.workbook!);
  const sheets = new Map<string, { headers: string[]; rows: unknown[][] }>();
  for (const name of reader.sheetNames) {
    const page = reader.sheet(name, { limit: 10_000 });
    sheets.set(name, { headers: [...page.headers], rows: page.rows.map((row) => [...row]) });
  }
  return { folder: result.folder, sheets, statistics: JSON.parse(JSON.stringify(result.statistics)), goldenHours: JSON.parse(JSON.stringify(result.golden_hours)) };
}
