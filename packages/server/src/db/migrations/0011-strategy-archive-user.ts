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
  // MySQL and MariaDB drop the index they made for the user_id foreign key once this one can serve
  // it, and refuse to drop this one while the key needs it: give the key its own index back first.
  if (qi.sequelize.getDialect() === 'mysql') {
    await qi.addIndex('strategy_archive', ['user_id'], { name: 'strategy_archive_user_id' });
  }
  await qi.removeIndex('strategy_archive', 'strategy_archive_user');
}
