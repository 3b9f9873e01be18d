import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * Inactive accounts warned, then archived (docs/server.md, "Inactive accounts"): the date of the
 * warning of the current period of inactivity (a warning older than the account's last activity
 * belongs to an earlier period) and the date its e-mail went (null: not mailed). Every server's
 * minute sweep looks for live accounts by their last activity and for warned ones by their
 * warning's date: both indexed after `deleted_at`, which every such look asks to be null.
 */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.addColumn('users', 'inactivity_warned_at', { type: DataTypes.DATE, allowNull: true });
  await qi.addColumn('users', 'inactivity_mailed_at', { type: DataTypes.DATE, allowNull: true });
  await qi.addIndex('users', ['deleted_at', 'last_seen_at'], { name: 'users_deleted_seen' });
  await qi.addIndex('users', ['deleted_at', 'inactivity_warned_at'], { name: 'users_deleted_warned' });
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.removeIndex('users', 'users_deleted_warned');
  await qi.removeIndex('users', 'users_deleted_seen');
  await qi.removeColumn('users', 'inactivity_mailed_at');
  await qi.removeColumn('users', 'inactivity_warned_at');
}
