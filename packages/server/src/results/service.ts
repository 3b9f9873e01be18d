import { isSafeFolderName, openWorkbook, parseResultFolderName, WorkbookSheetNotFoundError, type SheetPage, type SheetPageOptions, type WorkbookReader } from '@bt/core/report';
import { text, type Body } from '../app/input.js';
import { badRequest, notFound } from '../app/errors.js';
import { Lru } from '../app/lru.js';
import type { Database } from '../db/database.js';
import type { BacktestRun } from '../db/models.js';
import { typedRows } from '../db/rows.js';
import { resultOrder, type ListingRequest } from './listing.js';
import { oweRemoval, settleRemoval } from '../storage/removals.js';
import type { Storage } from '../storage/types.js';

export const RESULT_MESSAGES = {
  folderMissing: 'Aucune donnée XLSX associée à cette stratégie (folder manquant).',
  unknownFolder: 'Dossier inconnu',
  sheetMissing: 'Feuille manquante (sheet).',
  unknownSheet: (sheet: string, sheets: readonly string[]) => `Feuille inconnue : « ${sheet} » (feuilles : ${sheets.join(', ')}).`,
  badPage: 'Pagination invalide : offset ≥ 0, limit de 1 à 10000, use_header true ou false.',
  deleted: 'Backtest supprimé.',
  noWorkbook: '.xlsx indisponible pour ce backtest.',
  noChartCandles: 'Bougies indisponibles pour ce backtest (fichier importé avant leur conservation).',
} as const;

/** What the listings of a user's runs show (the dashboard, the comparator's list, the output files). */
const LISTED_COLUMNS = [
  'id', 'runId', 'folder', 'symbol', 'timeframe', 'strategy', 'strategyLabel', 'userStrategyId', 'source', 'startDate', 'endDate',
  'winrateTp1', 'winrateTp2', 'trades', 'resolved', 'slMode', 'slPips', 'tp1Pips', 'tp2Pips', 'xlsxPath', 'createdAt',
] as const;
export type ListedRun = Pick<BacktestRun, (typeof LISTED_COLUMNS)[number]>;

/**
 * A user's backtest results (docs/product.md §2.7 "User results"): their runs, the workbooks read for the
 * statistics modal, deletion. A folder is found by (user, folder) in the database, so another
 * user's folder answers exactly like a folder that does not exist (404); the file itself is read
 * through the storage, which resolves it inside its root. Parsed workbooks are kept in a small
 * LRU (parsing one takes tens to hundreds of milliseconds of a thread; the modal asks for several sheets).
 */
export class Results {
  private readonly workbooks = new Lru<string, Promise<WorkbookReader>>(24);

  constructor(
    private readonly db: Database,
    private readonly storage: Storage,
    /** The public top list (src/public/listing-cache.ts): a deleted result leaves it at once. */
    private readonly publicListing: { forget(): void } = { forget() {} },
    /** How a workbook is parsed: on an engine thread in the server (src/results/workbook-text.ts), here by default. */
    private readonly parse: (bytes: Uint8Array) => Promise<WorkbookReader> = openWorkbook,
    /** The server log (a folder that could not be removed is named there). */
    private readonly log: (message: string) => void = (message) => console.error(message),
  ) {}

  /** The user's finished runs, newest first, as plain rows of the listed columns (no summary, parameters or model). */
  async list(userId: number): Promise<ListedRun[]> {
    return (await this.listing(userId, { sort: 'newest', page: null })).runs;
  }

  /** The user's finished runs in the order asked, the whole list or one page of it, and how many there are. */
  async listing(userId: number, request: ListingRequest): Promise<{ runs: ListedRun[]; total: number }> {
    const { BacktestRun } = this.db.models;
    const where = { userId, status: 'done' };
    const order = resultOrder(request.sort, this.db.sequelize);
    const rows = BacktestRun.findAll({ where, order, attributes: [...LISTED_COLUMNS], raw: true, ...request.page });
    const [found, total] = await Promise.all([rows, request.page ? BacktestRun.count({ where }) : null]);
    const runs = typedRows<ListedRun>(BacktestRun, found);
    return { runs, total: total ?? runs.length };
  }

  /** The folder query parameter: missing → the spec's sentence (400). */
  static folderParam(query: Body): string {
    const folder = text(query, 'folder');
    if (folder === '') throw badRequest(RESULT_MESSAGES.folderMissing);
    return folder;
  }

  /** The user's finished run with this folder, or 404 'Dossier inconnu' (whoever else owns one). */
  async owned(userId: number, folder: string): Promise<BacktestRun> {
    if (!isSafeFolderName(folder)) throw notFound(RESULT_MESSAGES.unknownFolder);
    const run = await this.db.models.BacktestRun.findOne({ where: { userId, folder, status: 'done' } });
    if (!run) throw notFound(RESULT_MESSAGES.unknownFolder);
    return run;
  }

  async workbookBytes(run: BacktestRun): Promise<Uint8Array> {
    if (!run.xlsxPath) throw notFound(RESULT_MESSAGES.noWorkbook);
    try {
      return await this.storage.read(run.xlsxPath);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(RESULT_MESSAGES.noWorkbook);
      throw err;
    }
  }

  /** The parsed workbook of a run, from the LRU (keyed by run id: a deleted run's entry is dropped). */
  workbook(run: BacktestRun): Promise<WorkbookReader> {
    const key = run.runId;
    let reader = this.workbooks.get(key);
    if (!reader) {
      reader = this.workbookBytes(run).then((bytes) => this.parse(bytes));
      reader.catch(() => this.workbooks.delete(key));
      this.workbooks.set(key, reader);
    }
    return reader;
  }

  async meta(run: BacktestRun, options: { without?: readonly string[]; rows?: (sheet: string, rows: number) => number } = {}) {
    const meta = (await this.workbook(run)).meta();
    const sheets = meta.sheets
      .filter((s) => !options.without?.includes(s.name))
      .map((s) => ({ name: s.name, rows: options.rows ? options.rows(s.name, s.rows) : s.rows, columns: s.columns }));
    return { folder: run.folder, sheets, sheet_names: sheets.map((s) => s.name), columns: Object.fromEntries(sheets.map((s) => [s.name, s.columns])) };
  }

  async sheet(run: BacktestRun, sheet: string, options: SheetPageOptions): Promise<SheetPage> {
    if (!sheet) throw badRequest(RESULT_MESSAGES.sheetMissing);
    const reader = await this.workbook(run);
    try {
      return reader.sheet(sheet, options);
    } catch (err) {
      if (err instanceof WorkbookSheetNotFoundError) throw notFound(RESULT_MESSAGES.unknownSheet(sheet.slice(0, 60), err.sheets));
      if (err instanceof Error && /^invalid (offset|limit|useHeader)/.test(err.message)) throw badRequest(RESULT_MESSAGES.badPage);
      throw err;
    }
  }

  /**
   * The run's row goes, and with it the removal of its folder is owed (storage/removals.ts): the
   * user's deletion stands even when the storage refuses the removal (logged with the path, retried
   * by the sweep), so it never answers a 500 with the result already gone from their list.
   */
  async remove(run: BacktestRun): Promise<void> {
    const path = `results/${run.userId}/${run.folder}`;
    const owed = await this.db.transaction(async (t) => {
      await run.destroy({ transaction: t });
      return oweRemoval(this.db, path, t);
    });
    this.workbooks.delete(run.runId);
    this.publicListing.forget();
    await settleRemoval({ db: this.db, storage: this.storage, log: this.log }, owed, path, `result ${run.runId} deleted`);
  }
}

/** The folder without a uniqueness suffix (`..._sl20_7` → `..._sl20`), as the public pages name it. */
export function baseFolder(folder: string): string {
  try {
    const { suffix } = parseResultFolderName(folder);
    return suffix ? folder.slice(0, folder.length - suffix.length - 1) : folder;
  } catch {
    return folder;
  }
}
