import type { Database } from '../db/database.js';

/** How the statistics name a user: the username, or `supprimé #id` for an archived account. */
export async function userLabels(db: Database, ids: readonly number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids.filter((id) => Number.isInteger(id)))];
  if (unique.length === 0) return new Map();
  const rows = await db.models.User.findAll({ where: { id: unique }, attributes: ['id', 'username', 'deletedAt'] });
  return new Map(rows.map((u) => [u.id, u.deletedAt || !u.username ? `supprimé #${u.id}` : u.username]));
}
