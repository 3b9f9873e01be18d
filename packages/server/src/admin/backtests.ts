import { DEFAULT_SL_PIPS } from '@bt/core/catalogue';
import { isSafeFolderName, workbookFileName } from '@bt/core/report';
import { badRequest, notFound } from '../app/errors.js';
import { text, type Body } from '../app/input.js';
import type { Database } from '../db/database.js';
import { parseStoredObject } from '../db/json.js';
import type { BacktestRun } from '../db/models.js';
import { userLabels } from '../events/user-labels.js';
import type { Storage } from '../storage/types.js';
import { ADMIN_MSG } from './messages.js';

const PERIOD = /^(\d{4})-?(\d{2})-?(\d{2})\s*(?:→|->|_|-|\/|\s)\s*(\d{4})-?(\d{2})-?(\d{2})$/;

/** `2023-01-01 → 2023-01-31`, `2023-01-01_2023-01-31` or `20230101-20230131` as two days. */
export function parsePeriod(value: string): { startDate: string; endDate: string } {
  const m = PERIOD.exec(value.trim());
  if (!m) throw badRequest(ADMIN_MSG.periodInvalid(value));
  const startDate = `${m[1]}-${m[2]}-${m[3]}`;
  const endDate = `${m[4]}-${m[5]}-${m[6]}`;
  for (const day of [startDate, endDate]) {
    const ms = Date.parse(`${day}T00:00:00Z`);
    if (!Number.isFinite(ms) || new Date(ms).toISOString().slice(0, 10) !== day) throw badRequest(ADMIN_MSG.periodInvalid(value));
  }
  return { startDate, endDate };
}

/** The Backtests tab: every user's finished runs, and their workbooks. */
export class AdminBacktests {
  constructor(private readonly db: Database, private readonly storage: Storage) {}

  async summary(page: { limit: number; offset: number }) {
    const { BacktestRun } = this.db.models;
    const where = { status: 'done' };
    const [total, runs] = await Promise.all([BacktestRun.count({ where }), BacktestRun.findAll({ where, order: [['id', 'DESC']], limit: page.limit, offset: page.offset })]);
    const names = await userLabels(this.db, runs.map((r) => r.userId));
    return { items: runs.map((run) => this.item(run, names.get(run.userId) ?? `#${run.userId}`)), total };
  }

  private item(run: BacktestRun, user: string) {
    const resolved = run.resolved ?? 0;
    const tp1 = run.winrateTp1 === null ? 0 : Math.round(run.winrateTp1 * resolved);
    const tp2 = run.winrateTp2 === null ? 0 : Math.round(run.winrateTp2 * resolved);
    return {
      id: run.id,
      run_id: run.runId,
      folder: run.folder,
      user,
      user_id: run.userId,
      symbol: run.symbol,
      timeframe: run.timeframe,
      strategy: run.strategy,
      strategy_label: run.strategyLabel,
      source: run.source,
      period: `${run.startDate} → ${run.endDate}`,
      start_date: run.startDate,
      end_date: run.endDate,
      winrate_tp1: run.winrateTp1,
      winrate_tp2: run.winrateTp2,
      total: run.trades,
      resolved,
      tp1,
      tp2,
      sl: resolved - tp1,
      sl_mode: run.slMode,
      params: { ...parseStoredObject<Record<string, unknown>>(run.params), sl_pips: run.slPips ?? DEFAULT_SL_PIPS, tp1_pips: run.tp1Pips, tp2_pips: run.tp2Pips },
      duration_ms: run.durationMs,
      created_at: run.createdAt.toISOString(),
    };
  }

  /**
   * The finished run a download asks for: by `id` (the summary's), by `folder` (and `user_id` when
   * several users have one by that name), or by symbol, timeframe, strategy, period and sl — the
   * newest match.
   */
  async find(query: Body): Promise<BacktestRun> {
    const { BacktestRun } = this.db.models;
    const where: Record<string, unknown> = { status: 'done' };
    const id = text(query, 'id');
    const folder = text(query, 'folder');
    if (id) {
      if (/^\d+$/.test(id)) where.id = Number(id);
      else where.runId = id.slice(0, 36);
    } else if (folder) {
      if (!isSafeFolderName(folder)) throw notFound(ADMIN_MSG.runNotFound);
      where.folder = folder;
      const userId = text(query, 'user_id');
      if (userId) where.userId = /^\d+$/.test(userId) ? Number(userId) : -1;
    } else {
      const [symbol, timeframe, strategy, period] = ['symbol', 'timeframe', 'strategy', 'period'].map((name) => text(query, name));
      if (!symbol || !timeframe || !strategy || !period) throw badRequest(ADMIN_MSG.runQueryMissing);
      Object.assign(where, { symbol: symbol.toUpperCase(), timeframe: timeframe.toUpperCase(), strategy, ...parsePeriod(period) });
      const sl = text(query, 'sl');
      if (sl) {
        const value = Number(sl.replace(',', '.'));
        if (!Number.isFinite(value) || value < 0) throw badRequest(ADMIN_MSG.slInvalid(sl));
        where.slPips = value;
      }
    }
    const run = await BacktestRun.findOne({ where, order: [['id', 'DESC']] });
    if (!run) throw notFound(ADMIN_MSG.runNotFound);
    return run;
  }

  async workbook(run: BacktestRun): Promise<{ name: string; bytes: Uint8Array }> {
    if (!run.xlsxPath) throw notFound(ADMIN_MSG.noWorkbook);
    try {
      return { name: workbookFileName(run.folder), bytes: await this.storage.read(run.xlsxPath) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(ADMIN_MSG.noWorkbook);
      throw err;
    }
  }
}
