import { randomBytes } from 'node:crypto';
import type { Transaction } from 'sequelize';
import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import type { ArchivedStrategy, StrategySource } from '../db/models.js';
import type { Storage } from '../storage/types.js';
import { parseStoredObject } from '../db/json.js';
import { removeLeftover } from '../storage/removals.js';

/**
 * What the archive keeps about each import or generation, success or failure: the admin console's
 * overview (docs/product.md part 3 "Strategies tab": total_archived, openai_failures, avg_generation_seconds,
 * avg_attempts, dry_run_failures) is computed from these.
 */
export interface ArchiveMeta {
  /** 'openai' (a configured chat endpoint), 'builtin' (the prompt parser) or 'import'. */
  provider: 'openai' | 'builtin' | 'import';
  model?: string | null;
  /** Files produced and validated (1, or 2 when the first failed validation). */
  attempts: number;
  generation_seconds: number;
  /** Calls to the chat endpoint that failed (network, HTTP error, empty answer). */
  openai_failures: number;
  /** Attempts whose static check or dry run refused the file. */
  dry_run_failures: number;
  user_input?: string | null;
  comment?: string | null;
  error?: string | null;
  sl_mode?: string | null;
  dry_run?: { signals: number; elapsed_ms: number } | null;
  kpi?: { snapshot_ts: number };
}

export interface ArchiveEntry {
  type: StrategySource;
  strategyId: string | null;
  userId: number | null;
  displayName: string | null;
  slMode: string | null;
  status: 'ok' | 'failed';
  filename: string;
  source: string | null;
  meta: ArchiveMeta;
  note?: string | null;
}

export interface ArchiveOverview {
  total_archived: number;
  openai_failures: number;
  avg_generation_seconds: number | null;
  avg_attempts: number | null;
  dry_run_failures: number;
}

export class StrategyArchive {
  constructor(
    private readonly db: Database,
    private readonly storage: Storage,
    private readonly clock: Clock,
    /** The server log (a folder that could not be removed is named there). */
    private readonly log: (message: string) => void = (message) => console.error(message),
  ) {}

  /**
   * Keeps the file (when there is one) and its metadata; deleting a strategy later leaves this.
   * The file is written first, in a folder of its own, so a row never names a missing file; when
   * the row cannot be written the folder is removed, so a failure leaves neither. `within` runs
   * first in the row's transaction (the account's quota, the strategy's own row): when it throws,
   * nothing is written.
   */
  async record(entry: ArchiveEntry, within?: (t: Transaction) => Promise<void>): Promise<ArchivedStrategy> {
    const now = this.clock.now();
    const meta: ArchiveMeta = { ...entry.meta, kpi: { snapshot_ts: Math.floor(now.getTime() / 1000) } };
    const metaText = JSON.stringify(meta);
    let folder: string | null = null;
    let path: string | null = null;
    if (entry.source !== null) {
      const stamp = now.toISOString().slice(0, 10).replaceAll('-', '');
      folder = `archive/${entry.type}/${stamp}/${now.getTime()}-${randomBytes(4).toString('hex')}`;
      path = `${folder}/${safeName(entry.filename)}`;
      await this.storage.write(path, entry.source);
    }
    try {
      return await this.db.transaction(async (t) => {
        await within?.(t);
        return this.db.models.ArchivedStrategy.create(
          {
            type: entry.type,
            strategyId: entry.strategyId,
            userId: entry.userId,
            displayName: entry.displayName === null ? null : cleanName(entry.displayName),
            slMode: entry.slMode,
            status: entry.status,
            path,
            meta: metaText,
            note: entry.note ?? null,
            createdAt: now,
          },
          { transaction: t },
        );
      });
    } catch (err) {
      // The row's error is the one to answer; a removal that fails too is owed to the sweep
      // (storage/removals.ts), not left as a file no row names.
      if (folder) await removeLeftover({ db: this.db, storage: this.storage, log: this.log }, folder, 'archive entry not recorded');
      throw err;
    }
  }

  /** The admin overview of one type over the entries not deleted. */
  async overview(type: StrategySource): Promise<ArchiveOverview> {
    const rows = await this.db.models.ArchivedStrategy.findAll({ where: { type, deletedAt: null }, attributes: ['meta'] });
    const metas = rows.map((r) => parseStoredObject<ArchiveMeta>(r.meta));
    const mean = (values: number[]) => (values.length ? Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 1000) / 1000 : null);
    return {
      total_archived: rows.length,
      openai_failures: metas.reduce((sum, m) => sum + (m.openai_failures ?? 0), 0),
      avg_generation_seconds: mean(metas.map((m) => m.generation_seconds ?? 0)),
      avg_attempts: mean(metas.map((m) => m.attempts ?? 0)),
      dry_run_failures: metas.reduce((sum, m) => sum + (m.dry_run_failures ?? 0), 0),
    };
  }
}


/**
 * A name as people read it (the list, the admin console, a terminal running the CLI): the control
 * characters a file name or a NAME constant can carry (NUL, CR/LF, ESC opening a terminal sequence)
 * become spaces, bidirectional overrides (U+202E shows `yp.exe` as `exe.py`) are dropped, spaces
 * close up; at most `max` characters (code points, never half a pair).
 */
export function cleanName(name: string, max = 120): string {
  const clean = name.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').replace(/\s+/g, ' ').trim();
  return [...clean].slice(0, max).join('').trim();
}

/** A file name safe as one storage segment. */
export function safeName(name: string): string {
  const cleaned = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z0-9.-]+/g, '_').replace(/_+/g, '_').replace(/^[._]+|_+$/g, '').slice(0, 120);
  return cleaned || 'strategy.py';
}
