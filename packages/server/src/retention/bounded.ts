import type { Model, ModelStatic, Order, WhereOptions } from 'sequelize';
import type { Database } from '../db/database.js';

/**
 * One bounded round of a retention purge (docs/server.md "Data retention"): the ids of at most
 * `limit` rows matching `due`, read without a lock in `order` (by the index that serves it), then
 * deleted by id with `due` checked again, in one transaction. Two servers sweeping at once read
 * the same ids: the second delete finds them gone and counts nothing, without an error or a wait
 * on a range lock. Answers how many rows this call deleted.
 */
export async function deleteDue(db: Database, model: ModelStatic<Model>, due: WhereOptions, order: Order, limit: number): Promise<number> {
  const rows = await model.findAll({ where: due, attributes: ['id'], order, limit: Math.max(1, Math.floor(limit)), raw: true });
  const ids = rows.map((row) => Number((row as unknown as { id: number | string }).id));
  if (ids.length === 0) return 0;
  return db.transaction((t) => model.destroy({ where: { ...(due as object), id: ids }, transaction: t }));
}
