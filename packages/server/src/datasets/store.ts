import { CandleFileError, readCandlesCsv, readCandlesIpc, type Candles } from '@bt/core/candles';
import { parseTimeframe, type TimeframeKey } from '@bt/core/catalogue';
import { Op } from 'sequelize';
import { Lru } from '../app/lru.js';
import type { Database } from '../db/database.js';
import type { Dataset } from '../db/models.js';
import type { EnginePool } from '../jobs/pool.js';
import { columnsOf } from '../jobs/task.js';
import type { Storage } from '../storage/types.js';
import { ipcPathFor, libraryPath, parseLibraryPath } from './paths.js';
import { reindexFailure } from './reindex-failure.js';
import { monthsBetween, sha256, valuesOf, type DatasetValues } from './index-values.js';
import { IN_PROCESS_CSV_READER, libraryCsvFacts, type LibraryCsvReader } from './library-csv.js';
import { lowerBound } from '@bt/core/simulate';
import { concatCandles, monthOf, monthsOf, sliceCandles } from './series.js';
import { monthFilesOf, type MonthFile, type MonthFilesTask } from './month-files.js';
import { summarizeMonths, type SymbolAvailability } from './availability.js';
import { forEachBounded } from './bounded.js';

/** Months a reindex reads at once (docs/server.md, "Dataset store"). */
const REINDEX_CONCURRENCY = 4;

/** How long the availability summary is kept: another server process may have imported months. */
const AVAILABILITY_TTL_MS = 60_000;

/** Candles before the period a backtest loads to warm up indicators and zones (EMA_200 needs ~200). */
export const WARMUP_CANDLES = 500;

/** What loading a period reads of a month's index row. */
export type MonthRef = Pick<Dataset, 'month' | 'rows' | 'checksum' | 'path' | 'ipcPath'>;
const MONTH_REF: (keyof MonthRef)[] = ['month', 'rows', 'checksum', 'path', 'ipcPath'];

export interface LoadedSeries {
  /** Warm-up candles first, then the period, cut after `to`. */
  readonly candles: Candles;
  /** Index of the first candle at or after `from`. */
  readonly start: number;
  /** Candles inside [from, to]. */
  readonly inPeriod: number;
  readonly datasets: readonly MonthRef[];
}

export interface ReindexResult {
  /** Month files indexed. */
  datasets: number;
  /** Month files found. */
  files: number;
  /** Files that could not be read (left out of the index). */
  errors: { path: string; detail: string }[];
}

export interface DatasetFilter {
  symbol?: string;
  timeframe?: string;
  month?: string;
  year?: string;
  timeframes?: readonly string[];
}

/**
 * The official price data (docs/product.md §2.2, docs/server.md): one CSV per symbol, timeframe and UTC month in the library
 * storage (the official format, which is what users download), an Arrow IPC copy beside each for
 * fast loading, and one `datasets` row per month (symbol, timeframe, month, path, rows, first and
 * last candle, checksum). Loaded months are kept in a small LRU, keyed by path and checksum.
 */
export class DatasetStore {
  private readonly months = new Lru<string, Candles>(96);
  /**
   * Loaded periods (warm-up + period), keyed by the series, the period and the checksums of the
   * months they were cut from: a repeated backtest (the same form sent again, a load test, a
   * parameter search by hand) skips the join and the cut. An import changes a checksum, so a
   * stale entry is never hit.
   */
  private readonly slices = new Lru<string, LoadedSeries>(32);
  private summary: { at: number; value: Promise<SymbolAvailability[]> } | null = null;

  constructor(
    private readonly db: Database,
    readonly library: Storage,
    private readonly log: (message: string) => void = () => {},
    /** Where an import's month files are made (off the event loop); without it, in-process. */
    private readonly pool: EnginePool | null = null,
    /** What a reindex reads stale months' CSVs with: the parse processes (app/services.ts), or in-process. */
    private readonly csvReader: LibraryCsvReader = IN_PROCESS_CSV_READER,
  ) {}

  /** Who read CSVs in reindexes (0: the event loop, else a parse process's pid); tests check which. */
  readonly csvReaders = new Set<number>();

  count(): Promise<number> {
    return this.db.models.Dataset.count();
  }

  /**
   * Writes a series into the library, one file per month (replacing those months), with RSI_14
   * computed on the whole series so that each month carries it without a warm-up gap. `months`
   * keeps only some of them (the seeder: a resampled series never replaces a month a source holds
   * natively). The index rows of the series are written in one transaction.
   */
  async importSeries(candles: Candles, options: { symbol: string; timeframe: TimeframeKey; source: string; months?: (month: string) => boolean }): Promise<Dataset[]> {
    const filter = options.months;
    const months = filter ? monthsOf(candles).filter((m) => filter(m)) : null;
    const files = await this.monthFiles({ mode: 'series', columns: this.labelledColumns(candles, options), months });
    const written: { path: string; file: MonthFile }[] = [];
    for (const file of files) {
      const path = libraryPath(options.symbol, options.timeframe, file.month);
      await this.library.write(path, file.csv);
      await this.library.write(ipcPathFor(path), file.ipc);
      written.push({ path, file });
    }
    return this.upsertMany(written.map((w) => valuesOf(w.path, w.file, options.source)));
  }

  /**
   * Writes one month of a series (the admin's import, docs/admin.md "Import rules"), replacing the
   * month when it exists. RSI_14, when the file has none, is computed with the series' earlier
   * months as warm-up, so the month reads as if it had been cut from the whole series.
   */
  async importMonth(candles: Candles, options: { symbol: string; timeframe: TimeframeKey; month: string; source: string }): Promise<Dataset> {
    // Only the warm-up's closes cross (RSI_14 reads nothing else), in a buffer of their own to move.
    const warm = candles.extra.RSI_14 ? null : await this.warmupBefore(options.symbol, options.timeframe, options.month);
    const [file] = await this.monthFiles({ mode: 'month', columns: this.labelledColumns(candles, options), month: options.month, warmupClose: warm ? warm.close.slice() : null });
    return this.writeMonth(libraryPath(options.symbol, options.timeframe, options.month), file, options.source);
  }

  /** Copies of the caller's columns (they are moved to a thread), labelled as the files will be. */
  private labelledColumns(candles: Candles, options: { symbol: string; timeframe: TimeframeKey }) {
    return { ...columnsOf(candles), symbol: options.symbol, timeframe: options.timeframe };
  }

  /** The month files' bytes, made on the pool's threads when the store has a pool (docs/queue.md). */
  private async monthFiles(task: MonthFilesTask): Promise<MonthFile[]> {
    return this.pool ? this.pool.monthFiles(task) : monthFilesOf(task);
  }

  /** Up to WARMUP_CANDLES candles of the series just before a month (null when it has none). */
  private async warmupBefore(symbol: string, timeframe: string, month: string): Promise<Candles | null> {
    const earlier = await this.db.models.Dataset.findAll({ where: { symbol, timeframe, month: { [Op.lt]: month } }, order: [['month', 'DESC']], limit: 24 });
    const chosen: Dataset[] = [];
    let rows = 0;
    for (const d of earlier) {
      if (rows >= WARMUP_CANDLES) break;
      chosen.unshift(d);
      rows += d.rows;
    }
    if (chosen.length === 0) return null;
    const joined = concatCandles(await Promise.all(chosen.map((d) => this.month(d))), { symbol, timeframe: parseTimeframe(timeframe) });
    return joined.length > WARMUP_CANDLES ? sliceCandles(joined, joined.length - WARMUP_CANDLES, joined.length) : joined;
  }

  /**
   * One month file and its index row, safe against a kill at any point: the path goes into the
   * journal first, each file is written whole (storage writes are atomic), the row follows, and
   * the journal line is removed last. A journal line left behind means the row may not match
   * the files: `recover` re-indexes them.
   */
  private async writeMonth(path: string, file: MonthFile, source: string): Promise<Dataset> {
    const { DatasetJournalEntry } = this.db.models;
    const line = await this.db.transaction((t) => DatasetJournalEntry.create({ path, createdAt: new Date() }, { transaction: t }));
    // The Arrow copy first: a CSV never stands beside an older copy that claims to be fresher.
    await this.library.write(ipcPathFor(path), file.ipc);
    await this.library.write(path, file.csv);
    const [row] = await this.upsertMany([valuesOf(path, file, source)]);
    await this.db.transaction((t) => DatasetJournalEntry.destroy({ where: { id: line.id }, transaction: t }));
    return row;
  }

  /**
   * After an interrupted import (a killed process): removes the storage's staging files and, when
   * the journal holds paths, rebuilds the index from the files so every row matches its file.
   */
  async recover(): Promise<{ staged: number; journaled: number }> {
    const staged = await this.library.clearStaging();
    const { DatasetJournalEntry } = this.db.models;
    const lines = await DatasetJournalEntry.findAll({ attributes: ['id', 'path'] });
    if (lines.length > 0) {
      this.log(`dataset journal: ${lines.length} interrupted write(s) (${lines.map((l) => l.path).slice(0, 5).join(', ')}): re-indexing the library`);
      await this.reindex();
      await this.db.transaction((t) => DatasetJournalEntry.destroy({ where: { id: lines.map((l) => l.id) }, transaction: t }));
    }
    return { staged, journaled: lines.length };
  }

  /**
   * Rebuilds the index from the files (the admin's "reindex of the output CSV datasets"): every
   * `{symbol}/{timeframe}/{symbol}_{timeframe}_{YYYY-MM}.csv`; the IPC copy is rewritten when it is
   * missing or older than its CSV. Rows whose file is gone, or no longer reads, are dropped; a file
   * that does not read is reported and left out, the others are indexed.
   */
  async reindex(options: { onProgress?: (done: number, total: number) => void } = {}): Promise<ReindexResult> {
    const { Dataset } = this.db.models;
    const existing = new Map((await Dataset.findAll()).map((d) => [d.path, d]));
    const paths: { path: string; parsed: NonNullable<ReturnType<typeof parseLibraryPath>> }[] = [];
    for (const symbol of await this.library.list('')) {
      for (const timeframe of await this.library.list(symbol)) {
        for (const name of await this.library.list(`${symbol}/${timeframe}`)) {
          const path = `${symbol}/${timeframe}/${name}`;
          const parsed = parseLibraryPath(path);
          if (parsed) paths.push({ path, parsed });
        }
      }
    }
    const seen = new Set<string>();
    const fresh: DatasetValues[] = [];
    const changed: DatasetValues[] = [];
    const errors: { path: string; detail: string }[] = [];
    let done = 0;
    // A few months at once (REINDEX_CONCURRENCY): each waits on the storage and the parse
    // processes more than it computes. The index is written after, in one transaction or two.
    await forEachBounded(paths, REINDEX_CONCURRENCY, async ({ path, parsed }) => {
      try {
        const csv = await this.library.read(path);
        // A fresh copy that does not read is rewritten from the CSV, as a stale one: the month
        // was dropped from the index although its CSV, the file users buy, was whole.
        const copy = (await this.ipcIsFresh(path)) ? await this.readIpc(ipcPathFor(path)) : null;
        let facts = copy ? { rows: copy.length, first: copy.time[0], last: copy.time[copy.length - 1] } : null;
        if (!facts) {
          // Parsed off the event loop (a library holds thousands of months), in a parse process
          // that gets a copy of the bytes; the checksum below is of the caller's.
          const result = await this.csvReader.libraryCsv({ bytes: new Uint8Array(csv), symbol: parsed.symbol, timeframe: parsed.timeframe, file: path });
          this.csvReaders.add(result.reader);
          const read = libraryCsvFacts(result);
          await this.library.write(ipcPathFor(path), read.ipc);
          facts = read;
        }
        if (facts.rows === 0) throw new Error('no candle');
        const row = existing.get(path);
        const values = valuesOf(path, { csv, rows: facts.rows, first: facts.first, last: facts.last, checksum: sha256(csv) }, row?.source ?? 'reindex');
        if (!row) fresh.push(values);
        else if (row.checksum !== values.checksum || row.rows !== values.rows) changed.push(values);
        seen.add(path);
      } catch (err) {
        errors.push({ path, detail: reindexFailure(err) });
      }
      done++;
      options.onProgress?.(done, paths.length);
    });
    // In the library's order, whatever order the months ended in.
    const order = new Map(paths.map(({ path }, i) => [path, i]));
    const byPath = (a: { path: string }, b: { path: string }) => order.get(a.path)! - order.get(b.path)!;
    fresh.sort(byPath);
    errors.sort(byPath);
    if (changed.length) await this.upsertMany(changed.sort(byPath));
    const stale = [...existing.values()].filter((d) => !seen.has(d.path));
    await this.db.transaction(async (t) => {
      if (stale.length) await Dataset.destroy({ where: { id: stale.map((d) => d.id) }, transaction: t });
      // One statement for a new database over an existing library (the common case at start).
      if (fresh.length) await Dataset.bulkCreate(fresh, { transaction: t });
    });
    this.months.deleteWhere(() => true);
    this.slices.deleteWhere(() => true);
    this.summary = null;
    return { datasets: seen.size, files: paths.length, errors };
  }

  /**
   * Per symbol and timeframe: first and last candle, candles, months and runs of consecutive
   * months (GET /api/datasets, the backtest form). One grouped read of the index, kept for a
   * minute and dropped at once when this process writes the library.
   */
  availability(): Promise<SymbolAvailability[]> {
    if (this.summary && performance.now() - this.summary.at < AVAILABILITY_TTL_MS) return this.summary.value;
    const value = this.db.models.Dataset.findAll({ attributes: ['symbol', 'timeframe', 'month', 'rows', 'firstCandle', 'lastCandle'] }).then(summarizeMonths);
    const entry = { at: performance.now(), value };
    this.summary = entry;
    value.catch(() => {
      if (this.summary === entry) this.summary = null;
    });
    return value;
  }

  /** The availability of one symbol and timeframe, or null when the library has none. */
  async seriesAvailability(symbol: string, timeframe: string) {
    const found = (await this.availability()).find((s) => s.symbol === symbol);
    return { symbol: found ?? null, series: found?.timeframes.find((t) => t.timeframe === timeframe) ?? null };
  }

  list(filter: DatasetFilter = {}): Promise<Dataset[]> {
    const where: Record<string | symbol, unknown> = {};
    if (filter.symbol) where.symbol = filter.symbol;
    if (filter.timeframe) where.timeframe = filter.timeframe;
    else if (filter.timeframes) where.timeframe = [...filter.timeframes];
    if (filter.month) where.month = filter.month;
    else if (filter.year) where.month = { [Op.like]: `${filter.year}-%` };
    return this.db.models.Dataset.findAll({ where, order: [['symbol', 'ASC'], ['timeframe', 'ASC'], ['month', 'ASC']] });
  }

  byPath(path: string): Promise<Dataset | null> {
    return this.db.models.Dataset.findOne({ where: { path } });
  }

  /** The CSV bytes of a month, as stored (the resolved path is checked to stay inside the library). */
  csvBytes(dataset: Dataset): Promise<Uint8Array> {
    return this.library.read(dataset.path);
  }

  /**
   * Candles of a series for [from, to] (ms, inclusive), with up to `warmup` candles before `from`,
   * nothing after `to`. null when no month of the series overlaps the period.
   */
  async load(symbol: string, timeframe: string, from: number, to: number, warmup = WARMUP_CANDLES): Promise<LoadedSeries | null> {
    const fromMonth = monthOf(from);
    const all = await this.monthsUpTo(symbol, timeframe, fromMonth, monthOf(to), warmup);
    let first = all.findIndex((d) => d.month >= fromMonth);
    if (first < 0) return null;
    // Earlier months for the warm-up, until they hold enough candles.
    let before = 0;
    while (first > 0 && before < warmup) {
      first--;
      before += all[first].rows;
    }
    return this.loadFromMonths(all.slice(first), symbol, timeframe, from, to, warmup);
  }

  /**
   * `load` from months already chosen (the `datasets` of a `load` answer): no index query. A
   * bt-worker gets them with the job from the API, which has just read them (docs/queue.md).
   */
  async loadFromMonths(chosen: readonly MonthRef[], symbol: string, timeframe: string, from: number, to: number, warmup = WARMUP_CANDLES): Promise<LoadedSeries | null> {
    if (chosen.length === 0) return null;
    const sliceKey = `${symbol}|${timeframe}|${from}|${to}|${warmup}|${chosen.map((d) => d.checksum.slice(0, 16)).join(',')}`;
    const hit = this.slices.get(sliceKey);
    if (hit) return { ...hit, datasets: chosen };
    const loaded = await this.cut(chosen, symbol, timeframe, from, to, warmup);
    if (loaded) this.slices.set(sliceKey, loaded);
    return loaded;
  }

  /**
   * The series' months up to `toMonth`, oldest first: those of the period and, before them, the
   * 24 earlier ones (the warm-up of a daily series fits in them); all of them only when those 24
   * hold fewer than `warmup` candles. Not the whole history: on every backtest, each row is a
   * model instance to build.
   */
  private async monthsUpTo(symbol: string, timeframe: string, fromMonth: string, toMonth: string, warmup: number): Promise<MonthRef[]> {
    const { Dataset } = this.db.models;
    const where = { symbol, timeframe, month: { [Op.lte]: toMonth } };
    const limit = monthsBetween(fromMonth, toMonth) + 24;
    // Plain rows of the five columns read here: no model instance per month on every backtest.
    const recent = (await Dataset.findAll({ where, order: [['month', 'DESC']], limit, attributes: MONTH_REF, raw: true })).reverse() as MonthRef[];
    if (recent.length < limit) return recent;
    let before = 0;
    for (const d of recent) if (d.month < fromMonth) before += d.rows;
    if (before >= warmup) return recent;
    return (await Dataset.findAll({ where, order: [['month', 'ASC']], attributes: MONTH_REF, raw: true })) as MonthRef[];
  }

  private async cut(chosen: readonly MonthRef[], symbol: string, timeframe: string, from: number, to: number, warmup: number): Promise<LoadedSeries | null> {
    const parts = await Promise.all(chosen.map((d) => this.month(d)));
    const joined = concatCandles(parts, { symbol, timeframe: parseTimeframe(timeframe) });
    const start = lowerBound(joined.time, from);
    const end = lowerBound(joined.time, to + 1);
    if (end <= start) return null;
    const cutStart = Math.max(0, start - warmup);
    const candles = cutStart === 0 && end === joined.length ? joined : sliceCandles(joined, cutStart, end);
    return { candles, start: start - cutStart, inPeriod: end - start, datasets: chosen };
  }

  /** One month's candles from its IPC copy (or its CSV when the copy is missing), cached. */
  private async month(dataset: MonthRef): Promise<Candles> {
    const key = `${dataset.path}:${dataset.checksum}`;
    const cached = this.months.get(key);
    if (cached) return cached;
    let candles: Candles;
    try {
      candles = readCandlesIpc(await this.library.read(dataset.ipcPath), { validate: false }).candles;
    } catch (err) {
      // A copy that does not read (damaged on disk, left by hand) is a copy missing: the CSV is
      // the month, and every backtest on it was a 500 until a reindex.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && !(err instanceof CandleFileError)) throw err;
      this.log(`dataset ${dataset.path}: Arrow copy ${err instanceof CandleFileError ? 'unreadable' : 'missing'}, reading the CSV`);
      candles = readCandlesCsv(await this.library.read(dataset.path), { file: dataset.path }).candles;
    }
    this.months.set(key, candles);
    return candles;
  }

  /** A month's Arrow copy, or null when it does not read as one. */
  private async readIpc(ipcPath: string): Promise<Candles | null> {
    try {
      return readCandlesIpc(await this.library.read(ipcPath), { validate: false }).candles;
    } catch (err) {
      if (err instanceof CandleFileError) return null;
      throw err;
    }
  }

  private async ipcIsFresh(path: string): Promise<boolean> {
    // Through the storage (not the file system): the library may be an S3 bucket.
    const [csv, ipc] = await Promise.all([this.library.stat(path), this.library.stat(ipcPathFor(path))]);
    return !!csv && !!ipc && ipc.mtime.getTime() >= csv.mtime.getTime();
  }

  /** Index rows for months of one series, created or updated in one transaction. */
  private async upsertMany(values: DatasetValues[]): Promise<Dataset[]> {
    if (values.length === 0) return [];
    const paths = new Set(values.map((v) => v.path));
    this.summary = null;
    this.months.deleteWhere((key) => paths.has(key.slice(0, key.lastIndexOf(':'))));
    const { Dataset } = this.db.models;
    const rows = await this.db.transaction(async (t) => {
      const existing = await Dataset.findAll({ where: { path: [...paths] }, transaction: t });
      const byPath = new Map(existing.map((d) => [d.path, d]));
      const fresh = values.filter((v) => !byPath.has(v.path));
      const created = fresh.length ? await Dataset.bulkCreate(fresh, { transaction: t }) : [];
      const createdByPath = new Map(created.map((d) => [d.path, d]));
      const out: Dataset[] = [];
      for (const v of values) {
        const row = byPath.get(v.path);
        out.push(row ? await row.update(v, { transaction: t }) : createdByPath.get(v.path)!);
      }
      return out;
    });
    // Also after the commit: a summary read while the transaction ran saw the old rows.
    this.summary = null;
    return rows;
  }
}
