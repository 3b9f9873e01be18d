import { findStrategy } from '@bt/core/catalogue';
import { visibleMetricRows } from '@bt/core/format';
import type { SheetPage, SheetPageOptions } from '@bt/core/report';
import { Op } from 'sequelize';
import { notFound } from '../app/errors.js';
import type { Database } from '../db/database.js';
import type { BacktestRun } from '../db/models.js';
import { baseFolder, RESULT_MESSAGES, type Results } from '../results/service.js';
import type { ListingCache } from './listing-cache.js';

/** Resolved trades a result needs to be shown publicly (a win rate on fewer says little). */
export const TOP_MIN_TRADES = 20;
export const TOP_LIMIT = 12;
/** Sheets the public modal shows (docs/product.md §1.2); the trade list stays with its owner. */
const PUBLIC_HIDDEN_SHEETS = ['Trades'];

/** The columns the list shows or ranks by (no summary, parameters or error text). */
const PUBLIC_RUN_COLUMNS = ['id', 'folder', 'symbol', 'timeframe', 'strategy', 'strategyLabel', 'startDate', 'endDate', 'slMode', 'slPips', 'winrateTp1', 'winrateTp2', 'trades', 'resolved'] as const;
export type PublicRun = Pick<BacktestRun, (typeof PUBLIC_RUN_COLUMNS)[number]>;

export interface TopItem {
  pair: string;
  symbol: string;
  timeframe: string;
  strategy: string;
  strategy_name: string;
  strategy_label: string;
  from_date: string;
  to_date: string;
  period: string;
  winrate_tp1: number;
  winrate_tp2: number | null;
  trades: number;
  resolved: number;
  sl_mode: string;
  folder: string;
}

/**
 * The public top strategies (docs/product.md §1.2, §1.7): the best finished results of official strategies on
 * official data, by TP1 win rate, among those with at least TOP_MIN_TRADES resolved trades; one
 * per folder name and per setting (symbol, timeframe, strategy, period, stop). Anonymised: no user,
 * run id or sequence; the folder is shown without its per-user uniqueness suffix. The public
 * workbook calls serve only the folders this list exposes, without the Trades sheet and without
 * the Config rows run_id, user_id and run_seq.
 */
export class TopStrategies {
  constructor(
    private readonly db: Database,
    private readonly results: Results,
    /** Shared with what changes the list (a finished official run, a deleted result), which forgets it. */
    private readonly listing: ListingCache<Map<string, PublicRun>>,
    private readonly options: { minTrades: number; limit: number } = { minTrades: TOP_MIN_TRADES, limit: TOP_LIMIT },
  ) {}

  private exposedRuns(): Promise<Map<string, PublicRun>> {
    return this.listing.get(() => this.readExposedRuns());
  }

  /**
   * The listed runs by folder. Read as plain rows of the columns shown, in the order of their
   * index (migration 0008): a home page visit reads at most 500 short rows and builds no model.
   */
  private async readExposedRuns(): Promise<Map<string, PublicRun>> {
    const candidates = (await this.db.models.BacktestRun.findAll({
      where: { official: true, status: 'done', resolved: { [Op.gte]: this.options.minTrades }, winrateTp1: { [Op.ne]: null } },
      // Equal figures: the latest run first (the index read backwards; docs/server.md).
      order: [['winrateTp1', 'DESC'], ['resolved', 'DESC'], ['id', 'DESC']],
      limit: 500,
      attributes: [...PUBLIC_RUN_COLUMNS],
      raw: true,
    })) as unknown as PublicRun[];
    const byFolder = new Map<string, PublicRun>();
    const settings = new Set<string>();
    for (const run of candidates) {
      const folder = baseFolder(run.folder);
      const setting = [run.symbol, run.timeframe, run.strategy, run.startDate, run.endDate, run.slMode, run.slPips].join('|');
      if (byFolder.has(folder) || settings.has(setting)) continue;
      byFolder.set(folder, run);
      settings.add(setting);
      if (byFolder.size >= this.options.limit) break;
    }
    return byFolder;
  }

  async top(): Promise<TopItem[]> {
    return [...(await this.exposedRuns())].map(([folder, run]) => ({
      pair: run.symbol,
      symbol: run.symbol,
      timeframe: run.timeframe,
      strategy: run.strategy,
      strategy_name: run.strategy,
      strategy_label: findStrategy(run.strategy)?.label ?? run.strategyLabel,
      from_date: run.startDate,
      to_date: run.endDate,
      period: `${run.startDate} → ${run.endDate}`,
      winrate_tp1: run.winrateTp1!,
      winrate_tp2: run.winrateTp2,
      trades: run.trades,
      resolved: run.resolved,
      sl_mode: run.slMode,
      folder,
    }));
  }

  /** The run behind a public folder, or 404 (any folder the list does not show, whoever owns it). */
  async exposed(folder: string): Promise<BacktestRun> {
    const listed = (await this.exposedRuns()).get(folder);
    const run = listed ? await this.db.models.BacktestRun.findByPk(listed.id) : null;
    if (!run || run.status !== 'done') throw notFound(RESULT_MESSAGES.unknownFolder);
    return run;
  }

  async meta(folder: string) {
    const run = await this.exposed(folder);
    const config = await this.configRows(run);
    const meta = await this.results.meta(run, { without: PUBLIC_HIDDEN_SHEETS, rows: (sheet, rows) => (sheet === 'Config' ? config.length : rows) });
    return { ...meta, folder };
  }

  async sheet(folder: string, sheet: string, options: SheetPageOptions): Promise<SheetPage & { folder: string }> {
    const run = await this.exposed(folder);
    if (PUBLIC_HIDDEN_SHEETS.some((s) => s.toLowerCase() === sheet.trim().toLowerCase())) {
      throw notFound(RESULT_MESSAGES.unknownSheet(sheet.slice(0, 60), (await this.meta(folder)).sheet_names));
    }
    const page = await this.results.sheet(run, sheet, options);
    if (page.sheet !== 'Config') return { ...page, folder };
    // The hidden rows are removed here, on the server, before paging: they never leave it.
    const all = await this.configRows(run);
    const offset = page.offset;
    // As core's reader reads the flag (trimmed; false, 0 or no): ` no ` gave letters as headers here
    // but no header row.
    const useHeader = !/^\s*(false|0|no)\s*$/i.test(String(options.useHeader ?? 'true'));
    const rows: SheetPage['rows'] = useHeader ? all : [['metric', 'value'], ...all];
    return { ...page, rows: rows.slice(offset, offset + page.limit), total: rows.length, folder };
  }

  private async configRows(run: BacktestRun): Promise<SheetPage['rows']> {
    const reader = await this.results.workbook(run);
    const full = reader.sheet('Config', { offset: 0, limit: 10_000 });
    return visibleMetricRows(full.rows, { folder: run.folder, config: full.rows });
  }
}
