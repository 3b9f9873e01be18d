import { LIBRARY_TIMEFRAMES, findSymbol, getSymbol, parseTimeframe, type TimeframeKey } from '@bt/core/catalogue';
import { UniqueConstraintError } from 'sequelize';
import { badRequest, notFound } from '../app/errors.js';
import { intField, type Body } from '../app/input.js';
import { BACKTEST_MESSAGES, dayOf, parseDay } from '../backtests/request.js';
import type { Clock } from '../clock/index.js';
import type { CreditLedger } from '../credits/ledger.js';
import type { Database } from '../db/database.js';
import type { Dataset, User, UserCsv } from '../db/models.js';
import { EXTRACTION_PREFIX, parseLibraryPath, rangeFileName } from '../datasets/paths.js';
import type { DatasetFilter, DatasetStore } from '../datasets/store.js';
import type { BacktestRunner } from '../jobs/runner.js';
import { removeLeftover } from '../storage/removals.js';
import type { Storage } from '../storage/types.js';
import { hasBacktestPriority } from '../users/presenter.js';
import { cutExtraction, type ExtractionRange } from './extraction.js';

type CsvValues = Pick<UserCsv, 'kind' | 'path' | 'storagePath' | 'symbol' | 'timeframe' | 'startDate' | 'endDate' | 'rows' | 'bytes' | 'datasetId'>;

/** Timeframes an extraction may ask for: the library's and M1 (docs/product.md §2.9: M1 at most 3 weeks back). */
export const EXTRACTION_TIMEFRAMES: readonly TimeframeKey[] = ['M1', 'M5', 'M15', 'M30', 'H1', 'H4'];
export const M1_MAX_DAYS_BACK = 21;
export const MAX_EXTRACTION_DAYS = 366;
const DAY = 86_400_000;
/** GET /api/my_recent_extractions: `limit` 1 to this, 10 when absent. */
export const RECENT_EXTRACTIONS_MAX = 50;

export const CSV_MESSAGES = {
  notFound: 'Fichier introuvable.',
  notOwned: 'Fichier introuvable dans tes CSV.',
  missingFields: 'Renseigne paire, TF, dates.',
  extractionTimeframe: (tf: string) => `Unité de temps non disponible pour l’extraction : « ${tf} » (${EXTRACTION_TIMEFRAMES.join(', ')}).`,
  m1TooOld: (since: string) => `Extraction M1 limitée aux 3 dernières semaines : date de début au plus tôt le ${since}.`,
  tooRecent: (last: string) => `Les données d’extraction sont disponibles jusqu’à 24 h en arrière : date de fin au plus tard le ${last}.`,
  tooLong: (days: number) => `Période d’extraction trop longue (${days} jours). Maximum : ${MAX_EXTRACTION_DAYS} jours.`,
  noData: (symbol: string, tf: string, start: string, end: string) => `Aucune donnée pour ${symbol} ${tf} du ${start} au ${end}.`,
  badLimit: `Limite invalide : un nombre entier de 1 à ${RECENT_EXTRACTIONS_MAX}.`,
  extracted: 'Extraction prête.',
  alreadyExtracted: 'Extraction déjà disponible dans tes CSV (aucun crédit débité).',
} as const;

export interface CsvFile {
  name: string;
  bytes: Uint8Array;
  /** A credit was taken by this call. */
  charged: boolean;
  balance: number;
}

/**
 * The CSV shop (docs/product.md §2.2 "/csv-shop", §2.6, §2.9): the library of official monthly files, their
 * purchase (1 credit the first time, free for their owner afterwards), and on-demand extraction of
 * a date range from the same store (1 credit, private to its owner, not charged when it fails).
 * An extraction's file is made off the event loop: on the engine threads, or by a bt-worker through
 * the job queue (docs/queue.md), as the backtests' runner says.
 */
export class CsvShop {
  constructor(private readonly deps: { db: Database; storage: Storage; datasets: DatasetStore; ledger: CreditLedger; clock: Clock; runner: BacktestRunner; log?: (message: string) => void }) {}

  library(filter: DatasetFilter): Promise<Dataset[]> {
    return this.deps.datasets.list({ ...filter, timeframes: filter.timeframe ? undefined : LIBRARY_TIMEFRAMES });
  }

  async ownedPaths(userId: number): Promise<Set<string>> {
    const rows = await this.deps.db.models.UserCsv.findAll({ where: { userId, kind: 'library' }, attributes: ['path'] });
    return new Set(rows.map((r) => r.path));
  }

  /** A library month that the library lists, or 404 (junk, traversal, unlisted timeframe). */
  async dataset(path: string): Promise<Dataset> {
    const parsed = parseLibraryPath(path);
    if (!parsed || !LIBRARY_TIMEFRAMES.includes(parsed.timeframe as TimeframeKey)) throw notFound(CSV_MESSAGES.notFound);
    const dataset = await this.deps.datasets.byPath(path);
    if (!dataset) throw notFound(CSV_MESSAGES.notFound);
    return dataset;
  }

  /** The user's own copy of a path: a purchased library month or one of their extractions. */
  async owned(userId: number, path: string): Promise<UserCsv | null> {
    if (typeof path !== 'string' || path.length > 255) return null;
    const kind = path.startsWith(EXTRACTION_PREFIX) ? 'extraction' : 'library';
    return this.deps.db.models.UserCsv.findOne({ where: { userId, kind, path } });
  }

  /** GET /api/download_csv_by_path: free when owned, otherwise bought once (1 credit). */
  async download(user: User, path: string): Promise<CsvFile> {
    const mine = await this.owned(user.id, path);
    if (mine) return this.ownedFile(user, mine);
    const dataset = await this.dataset(path);
    // Read before charging: a file that cannot be read costs nothing. A month the index lists but
    // the disk no longer holds (removed by hand, before a reindex) is not found, not a 500.
    let bytes: Uint8Array;
    try {
      bytes = await this.deps.datasets.csvBytes(dataset);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(CSV_MESSAGES.notFound);
      throw err;
    }
    const { balance, charged } = await this.record(user, 'csvDownload', `csv:${user.id}:${path}`, {
      kind: 'library', path, storagePath: dataset.path, symbol: dataset.symbol, timeframe: dataset.timeframe,
      startDate: dayOf(dataset.firstCandle.getTime()), endDate: dayOf(dataset.lastCandle.getTime()), rows: dataset.rows, bytes: dataset.bytes, datasetId: dataset.id,
    });
    return { name: path.split('/').pop()!, bytes, charged, balance };
  }

  /** GET /api/download_owned_csv_by_path: only what the user owns, free. */
  async downloadOwned(user: User, path: string): Promise<CsvFile> {
    const mine = await this.owned(user.id, path);
    if (!mine) throw notFound(CSV_MESSAGES.notOwned);
    return this.ownedFile(user, mine);
  }

  private async ownedFile(user: User, mine: UserCsv): Promise<CsvFile> {
    const store = mine.kind === 'library' ? this.deps.datasets.library : this.deps.storage;
    let bytes: Uint8Array;
    try {
      bytes = await store.read(mine.storagePath);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(CSV_MESSAGES.notFound);
      throw err;
    }
    return { name: mine.path.split('/').pop()!, bytes, charged: false, balance: await this.deps.ledger.balance(user.id) };
  }

  /** GET /api/extract_to_output_live: a range cut from the store into the user's private file. */
  async extract(user: User, input: { symbol: string; timeframe: string; startDate: string; endDate: string }): Promise<{ file: UserCsv; charged: boolean; balance: number }> {
    if (!input.symbol || !input.timeframe || !input.startDate || !input.endDate) throw badRequest(CSV_MESSAGES.missingFields);
    const found = findSymbol(input.symbol);
    if (!found) throw badRequest(BACKTEST_MESSAGES.unknownSymbol(input.symbol.slice(0, 40)));
    let timeframe: TimeframeKey;
    try {
      timeframe = parseTimeframe(input.timeframe);
    } catch {
      throw badRequest(CSV_MESSAGES.extractionTimeframe(input.timeframe.slice(0, 20)));
    }
    if (!EXTRACTION_TIMEFRAMES.includes(timeframe)) throw badRequest(CSV_MESSAGES.extractionTimeframe(timeframe));
    const from = parseDay(input.startDate);
    const endDay = parseDay(input.endDate);
    if (from > endDay) throw badRequest(BACKTEST_MESSAGES.dateOrder);
    const today = Math.floor(this.deps.clock.now().getTime() / DAY) * DAY;
    const lastDay = today - DAY;
    if (endDay > lastDay) throw badRequest(CSV_MESSAGES.tooRecent(dayOf(lastDay)));
    const days = Math.round((endDay - from) / DAY) + 1;
    if (days > MAX_EXTRACTION_DAYS) throw badRequest(CSV_MESSAGES.tooLong(days));
    if (timeframe === 'M1' && from < today - M1_MAX_DAYS_BACK * DAY) throw badRequest(CSV_MESSAGES.m1TooOld(dayOf(today - M1_MAX_DAYS_BACK * DAY)));

    const symbol = getSymbol(found.symbol).symbol;
    const name = rangeFileName(symbol, timeframe, input.startDate, input.endDate);
    const path = `${EXTRACTION_PREFIX}${name}`;
    const existing = await this.owned(user.id, path);
    if (existing) return { file: existing, charged: false, balance: await this.deps.ledger.balance(user.id) };

    const storagePath = `extractions/${user.id}/${name}`;
    const made = await this.makeFile({ symbol, timeframe, from, to: endDay + DAY - 1 }, user, storagePath);
    if (!made) throw notFound(CSV_MESSAGES.noData(symbol, timeframe, input.startDate, input.endDate));
    try {
      const { balance, charged, row } = await this.record(user, 'extraction', `extraction:${user.id}:${name}`, {
        kind: 'extraction', path, storagePath, symbol, timeframe, startDate: input.startDate, endDate: input.endDate, rows: made.rows, bytes: made.bytes, datasetId: null,
      });
      return { file: row, charged, balance };
    } catch (err) {
      // Not charged (402, or the transaction rolled back): the file goes too, unless a parallel
      // identical extraction of the same user now owns it.
      // Its removal owed (storage/removals.ts): a storage refusing it leaves the file to the sweep,
      // and the answer stays the refusal's (402, 401 for an account deleted meanwhile), not a 500.
      if (!(await this.owned(user.id, path))) await removeLeftover({ db: this.deps.db, storage: this.deps.storage, log: this.deps.log ?? ((m) => console.error(m)) }, storagePath, `extraction ${name} not recorded`);
      throw err;
    }
  }

  /**
   * Writes an extraction's file (null: no candle in the range). Queue mode: a bt-worker cuts and
   * writes it, and a failure is a 503 before anything is charged (src/jobs/queue.ts `extract`).
   */
  private async makeFile(range: ExtractionRange, user: User, storagePath: string): Promise<{ rows: number; bytes: number } | null> {
    const { runner, datasets, storage, clock } = this.deps;
    if (runner.kind === 'queue') {
      const done = await runner.extract({ data: { ...range, userId: user.id, storagePath }, priority: hasBacktestPriority(user, clock.now()) });
      return 'empty' in done ? null : done;
    }
    const cut = await cutExtraction(datasets, runner.pool, range);
    if (!cut) return null;
    await storage.write(storagePath, cut.csv);
    return { rows: cut.rows, bytes: cut.csv.byteLength };
  }

  /** Charge and ownership row in one transaction; an identical parallel request ends up owning it once, charged once. */
  private async record(user: User, action: 'csvDownload' | 'extraction', reference: string, values: CsvValues): Promise<{ balance: number; charged: boolean; row: UserCsv }> {
    const { db, ledger, clock } = this.deps;
    try {
      return await db.transaction(async (t) => {
        const existing = await db.models.UserCsv.findOne({ where: { userId: user.id, kind: values.kind, path: values.path }, transaction: t });
        if (existing) return { balance: await ledger.balance(user.id, t), charged: false, row: existing };
        const spent = await ledger.spend(user.id, action, { reference, transaction: t, meta: { path: values.path } });
        const now = clock.now();
        const row = await db.models.UserCsv.create({ ...values, userId: user.id, createdAt: now, updatedAt: now }, { transaction: t });
        return { balance: spent.balance, charged: spent.applied, row };
      });
    } catch (err) {
      if (!(err instanceof UniqueConstraintError)) throw err;
      const row = await db.models.UserCsv.findOne({ where: { userId: user.id, kind: values.kind, path: values.path } });
      if (!row) throw err;
      return { balance: await ledger.balance(user.id), charged: false, row };
    }
  }

  /**
   * The user's latest extractions. `limit` is the query's text: a whole number from 1 to 50, 10
   * when absent, else a 400 (it was clamped through Number(), so `1.5` reached the SQL LIMIT: a 500).
   */
  recentExtractions(userId: number, query: Body): Promise<UserCsv[]> {
    const limit = intField(query, 'limit', { min: 1, max: RECENT_EXTRACTIONS_MAX, fallback: 10, message: CSV_MESSAGES.badLimit });
    return this.deps.db.models.UserCsv.findAll({ where: { userId, kind: 'extraction' }, order: [['id', 'DESC']], limit });
  }

  all(userId: number): Promise<UserCsv[]> {
    return this.deps.db.models.UserCsv.findAll({ where: { userId }, order: [['id', 'DESC']] });
  }
}


