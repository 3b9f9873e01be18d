import type { Candles } from '@bt/core/candles';
import { HttpError, badRequest, conflict } from '../../app/errors.js';
import { LIBRARY_LEASE, type HeldLease, type MaintenanceLeases } from '../../datasets/lease.js';
import type { DatasetStore } from '../../datasets/store.js';
import { libraryPath } from '../../datasets/paths.js';
import { monthBounds } from '../../datasets/series.js';
import type { CandleUploads } from '../../uploads/candle-uploads.js';
import { walkZipEntries, ZipRefusal, type EntryProblem, type ZipEntryInfo } from '@bt/core/node';
import { ADMIN_MSG } from '../messages.js';
import { parseEntryName } from './entry-names.js';
import type { ImportLimits } from './limits.js';
import { IMPORT_MSG } from './messages.js';

export type ImportMode = 'skip' | 'overwrite';

export interface ImportRequest {
  archive: Uint8Array;
  targetMonth: string;
  mode: ImportMode;
  dryRun: boolean;
  source: string;
}

export interface ImportedFile {
  file: string;
  symbol: string;
  timeframe: string;
  month: string;
  rows: number;
  path: string;
}

export interface ImportReport {
  status: 'success';
  target_month: string;
  mode: ImportMode;
  dry_run: boolean;
  added: ImportedFile[];
  skipped: ImportedFile[];
  overwritten: ImportedFile[];
  errors: { file: string; detail: string }[];
  counts: { added: number; skipped: number; overwritten: number; errors: number };
}

const MB = 1024 * 1024;

/**
 * Why yauzl could not open an archive, in French for the console: it was yauzl's English
 * ('End of central directory record signature not found. Either not a zip file, or file is
 * truncated.') inside the French sentence.
 */
function zipFailure(message: string): string {
  if (/end of central directory record signature not found/i.test(message)) return 'fin d’archive introuvable : fichier tronqué, ou d’un autre format que ZIP';
  if (/multi-disk|spanned/i.test(message)) return 'archive en plusieurs volumes, non prise en charge';
  return 'répertoire central endommagé';
}
const dayTime = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

/**
 * Imports a month of official data from a ZIP of CSVs (docs/admin.md, "Import rules"): each
 * entry's name is checked before it is inflated (no absolute path, no `..`, no link), each is
 * inflated under its own cap and the archive's budget, validated by core's reader in a parse
 * worker (never on the event loop), and written through the dataset store, atomically and under
 * the journal that keeps the index consistent if the process dies. Good files land; every other
 * entry is reported with the reason, and the import goes on. One import (or reindex) runs at a
 * time, across every server process on the database (the library lease, datasets/lease.ts).
 */
export class OutputImporter {
  private running = false;

  constructor(
    private readonly deps: { datasets: DatasetStore; uploads: CandleUploads; limits: ImportLimits; log: (message: string) => void; leases: MaintenanceLeases },
  ) {}

  /** An import; the caller holds the library (inside `exclusive`, which the route takes before reading the body). */
  async runHeld(request: ImportRequest): Promise<ImportReport> {
    // A previous import killed halfway is finished first: the index must match the files.
    await this.deps.datasets.recover();
    return this.walk(request);
  }

  /**
   * Library maintenance (an import, a reindex) one at a time, in this process and across the
   * others on the database; 409 while one runs. `refused` runs before the 409 is thrown (the
   * import route drops the body it did not read).
   */
  async exclusive<T>(fn: () => Promise<T>, refused?: () => Promise<void>): Promise<T> {
    const lease = await this.acquire();
    if (!lease) {
      await refused?.();
      throw conflict(ADMIN_MSG.importBusy);
    }
    try {
      return await fn();
    } finally {
      await lease.release();
      this.running = false;
    }
  }

  /** The library lease, or null when busy; the process's own flag first (a second request here costs no query). */
  private async acquire(): Promise<HeldLease | null> {
    if (this.running) return null;
    this.running = true;
    let held: HeldLease | null = null;
    try {
      held = await this.deps.leases.tryAcquire(LIBRARY_LEASE);
      return held;
    } finally {
      if (!held) this.running = false;
    }
  }

  private async walk(request: ImportRequest): Promise<ImportReport> {
    const { limits } = this.deps;
    const report: ImportReport = {
      status: 'success',
      target_month: request.targetMonth,
      mode: request.mode,
      dry_run: request.dryRun,
      added: [],
      skipped: [],
      overwritten: [],
      errors: [],
      counts: { added: 0, skipped: 0, overwritten: 0, errors: 0 },
    };
    const refuse = (file: string, detail: string): void => {
      report.errors.push({ file: file.slice(0, 300), detail });
    };
    const seen = new Map<string, string>();
    const { start, end } = monthBounds(request.targetMonth);
    const started = performance.now();
    try {
      await walkZipEntries(
        request.archive,
        { maxEntries: limits.maxEntries, maxInflatedBytes: limits.maxInflatedBytes, maxEntryBytes: limits.maxEntryBytes },
        {
          onRefused: (info, problem) => refuse(info.name, this.problemText(problem, info)),
          onEntry: (info) => {
            const parsed = parseEntryName(info.name);
            if (!parsed.ok) {
              // macOS archive metadata is noise, not a mistake.
              if (!info.name.startsWith('__MACOSX/') && !/(^|\/)\.DS_Store$/.test(info.name)) refuse(info.name, parsed.reason === 'symbol' ? IMPORT_MSG.symbol(parsed.symbol ?? '') : parsed.reason === 'pattern' ? IMPORT_MSG.pattern : IMPORT_MSG.notCsv);
              return false;
            }
            if (parsed.month && parsed.month !== request.targetMonth) {
              refuse(info.name, IMPORT_MSG.otherMonth(parsed.month, request.targetMonth));
              return false;
            }
            const key = `${parsed.symbol}/${parsed.timeframe}`;
            const first = seen.get(key);
            if (first) {
              refuse(info.name, IMPORT_MSG.duplicate(first));
              return false;
            }
            seen.set(key, info.name);
            return true;
          },
          onRead: async (info, data) => {
            const parsed = parseEntryName(info.name);
            if (!parsed.ok) return;
            const candles = await this.validate(info, data, parsed.symbol, parsed.timeframe, refuse);
            if (!candles) return;
            if (candles.length === 0) return refuse(info.name, IMPORT_MSG.empty);
            const first = candles.time[0];
            const last = candles.time[candles.length - 1];
            if (first < start || last >= end) return refuse(info.name, IMPORT_MSG.outsideMonth(request.targetMonth, dayTime(first), dayTime(last)));
            const path = libraryPath(parsed.symbol, parsed.timeframe, request.targetMonth);
            const file: ImportedFile = { file: info.name, symbol: parsed.symbol, timeframe: parsed.timeframe, month: request.targetMonth, rows: candles.length, path };
            const exists = (await this.deps.datasets.byPath(path)) !== null;
            if (exists && request.mode === 'skip') {
              report.skipped.push(file);
              return;
            }
            if (!request.dryRun) {
              await this.deps.datasets.importMonth(candles, { symbol: parsed.symbol, timeframe: parsed.timeframe, month: request.targetMonth, source: request.source.slice(0, 255) });
            }
            (exists ? report.overwritten : report.added).push(file);
          },
        },
      );
    } catch (err) {
      if (err instanceof ZipRefusal) {
        if (err.code === 'too_many_entries') throw badRequest(ADMIN_MSG.tooManyEntries(limits.maxEntries));
        throw badRequest(ADMIN_MSG.notAZip(zipFailure(err.message)));
      }
      throw err;
    }
    report.counts = { added: report.added.length, skipped: report.skipped.length, overwritten: report.overwritten.length, errors: report.errors.length };
    this.deps.log(
      `admin: import-output ${request.targetMonth} (${request.mode}${request.dryRun ? ', dry run' : ''}) from ${request.source}: ` +
        `${report.counts.added} added, ${report.counts.overwritten} overwritten, ${report.counts.skipped} skipped, ${report.counts.errors} refused in ${Math.round(performance.now() - started)} ms`,
    );
    return report;
  }

  /** Core's reader in a parse process; a refusal becomes the entry's error (French, with line and column). */
  private async validate(info: ZipEntryInfo, data: Buffer, symbol: string, timeframe: Parameters<CandleUploads['readCandles']>[3], refuse: (file: string, detail: string) => void): Promise<Candles | null> {
    try {
      const { candles } = await this.deps.uploads.readCandles({ filename: info.name.split('/').pop() ?? info.name, bytes: data }, 'csv', symbol, timeframe);
      return candles;
    } catch (err) {
      if (err instanceof HttpError && err.status < 500) {
        refuse(info.name, err.message);
        return null;
      }
      throw err;
    }
  }

  private problemText(problem: EntryProblem, info: ZipEntryInfo): string {
    const { limits } = this.deps;
    switch (problem) {
      case 'absolute':
        return IMPORT_MSG.absolute;
      case 'traversal':
        return IMPORT_MSG.traversal;
      case 'symlink':
        return IMPORT_MSG.symlink;
      case 'bad_name':
        return IMPORT_MSG.badName;
      case 'encrypted':
        return IMPORT_MSG.encrypted;
      case 'compression':
        return IMPORT_MSG.compression(info.compressionMethod);
      case 'too_large':
        return IMPORT_MSG.tooLarge(Math.round(limits.maxEntryBytes / MB));
      case 'budget':
        return IMPORT_MSG.budget(Math.round(limits.maxInflatedBytes / MB));
      case 'broken':
        return IMPORT_MSG.broken;
    }
  }
}
