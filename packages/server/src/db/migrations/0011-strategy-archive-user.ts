import type { QueryInterface } from 'sequelize';

/**
 * The archive read per account (docs/strategies-python.md, "Limits per account"): every import and
 * generation counts the account's entries of the day with the account's row locked, and a failure
 * prunes its older ones; without this index each of them read the whole archive.
 */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.addIndex('strategy_archive', ['user_id', 'created_at'], { name: 'strategy_archive_user' });
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.removeIndex('strategy_archive', 'strategy_archive_user');
}
