import { Op } from 'sequelize';
import { badRequest, notFound } from '../app/errors.js';
import { text, type Body } from '../app/input.js';
import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import { parseStoredObject } from '../db/json.js';
import type { ArchivedStrategy, StrategySource } from '../db/models.js';
import { userLabels } from '../events/user-labels.js';
import type { Storage } from '../storage/types.js';
import { ADMIN_MSG } from '../admin/messages.js';
import type { ArchiveMeta } from './archive.js';

export const ARCHIVE_TYPES: readonly StrategySource[] = ['gpt', 'import'];

export function archiveType(value: string): StrategySource {
  if (!(ARCHIVE_TYPES as readonly string[]).includes(value)) throw badRequest(ADMIN_MSG.archiveTypeInvalid);
  return value as StrategySource;
}

/** The entry's timestamp (seconds): the archive's `meta.kpi.snapshot_ts`, else its row's time. */
function timestampOf(row: ArchivedStrategy): number {
  const stamp = parseStoredObject<ArchiveMeta>(row.meta).kpi?.snapshot_ts;
  return typeof stamp === 'number' && Number.isFinite(stamp) ? stamp : Math.floor(row.createdAt.getTime() / 1000);
}

/**
 * The admin's view of the strategy archive (docs/admin.md, "Strategy archive"): recent entries,
 * one entry with its file, soft deletion and restoration. An entry is named by its type, its id
 * and its timestamp, all three checked, so a stale link never reaches another entry.
 */
export class ArchiveEntries {
  constructor(private readonly db: Database, private readonly storage: Storage, private readonly clock: Clock) {}

  /** Newest first by id (unique, so pages neither overlap nor skip while nothing is added). */
  async recent(type: StrategySource, page: { limit: number; offset: number }, includeDeleted: boolean) {
    const where = includeDeleted ? { type } : { type, deletedAt: null };
    const rows = await this.db.models.ArchivedStrategy.findAll({ where, order: [['id', 'DESC']], limit: page.limit, offset: page.offset });
    const names = await userLabels(this.db, rows.map((r) => r.userId ?? NaN));
    return Promise.all(rows.map((row) => this.present(row, row.userId === null ? null : (names.get(row.userId) ?? null))));
  }

  /** The entry named by a request's `type`, `id` and `timestamp` (or `ts`); 404 otherwise. */
  async find(query: Body, options: { includeDeleted?: boolean } = {}): Promise<ArchivedStrategy> {
    const type = archiveType(text(query, 'type'));
    const id = text(query, 'id');
    if (!id) throw badRequest(ADMIN_MSG.archiveIdMissing);
    const stamp = text(query, 'timestamp') || text(query, 'ts');
    if (stamp && !/^\d{1,12}$/.test(stamp)) throw badRequest(ADMIN_MSG.archiveTimestampInvalid(stamp));
    const where: Record<string, unknown> = { type };
    // The archive row's id, or the strategy's own id (us_…) with the timestamp to tell its entries apart.
    if (/^\d{1,12}$/.test(id)) where.id = Number(id);
    else where.strategyId = id.slice(0, 40);
    if (!options.includeDeleted) where.deletedAt = null;
    const rows = await this.db.models.ArchivedStrategy.findAll({ where, order: [['id', 'DESC']], limit: 50 });
    const row = rows.find((r) => !stamp || timestampOf(r) === Number(stamp));
    if (!row) throw notFound(ADMIN_MSG.archiveNotFound);
    return row;
  }

  async detail(row: ArchivedStrategy) {
    const user = row.userId === null ? null : ((await userLabels(this.db, [row.userId])).get(row.userId) ?? null);
    const entry = await this.present(row, user);
    let source: string | null = null;
    if (row.path) {
      try {
        source = new TextDecoder().decode(await this.storage.read(row.path));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
    return { ...entry, source };
  }

  async file(row: ArchivedStrategy): Promise<{ name: string; bytes: Uint8Array }> {
    if (!row.path) throw notFound(ADMIN_MSG.archiveNoFile);
    try {
      return { name: row.path.split('/').pop()!, bytes: await this.storage.read(row.path) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(ADMIN_MSG.archiveNoFile);
      throw err;
    }
  }

  /** Soft delete: the entry leaves the lists and the overview, its file stays, restore-all brings it back. */
  async softDelete(row: ArchivedStrategy): Promise<void> {
    if (row.deletedAt) return;
    await this.db.transaction((t) => row.update({ deletedAt: this.clock.now() }, { transaction: t }));
  }

  async restoreAll(type: StrategySource): Promise<number> {
    const [restored] = await this.db.transaction((t) =>
      this.db.models.ArchivedStrategy.update({ deletedAt: null }, { where: { type, deletedAt: { [Op.ne]: null } }, transaction: t }),
    );
    return restored;
  }

  private async present(row: ArchivedStrategy, user: string | null) {
    const meta = parseStoredObject<ArchiveMeta>(row.meta);
    const file = row.path ? await this.storage.stat(row.path) : null;
    return {
      id: row.id,
      type: row.type,
      strategy_id: row.strategyId,
      display_name: row.displayName,
      sl_mode: row.slMode,
      user_id: row.userId,
      user,
      status: row.status,
      timestamp: timestampOf(row),
      created_at: row.createdAt.toISOString(),
      meta_present: row.meta !== null && Object.keys(meta).length > 0,
      meta,
      files: file ? [{ name: row.path!.split('/').pop()!, rel: row.path, bytes: file.bytes }] : [],
      note: row.note,
      deleted: row.deletedAt !== null,
    };
  }
}
