import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * A deleted account's row erased after 12 months (docs/server.md, "Deleting an account"): the
 * sweep clears its personal fields once and marks the row, and finds the rows to erase by an index
 * (every server looks once a minute). `deleted_email` indexed too: the erasure asks whether another
 * archived account still names the address before it drops the address's re-creation counts.
 */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.addColumn('users', 'erased_at', { type: DataTypes.DATE, allowNull: true });
  await qi.addIndex('users', ['erased_at', 'deleted_at'], { name: 'users_erased_deleted' });
  await qi.addIndex('users', ['deleted_email'], { name: 'users_deleted_email' });
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.removeIndex('users', 'users_deleted_email');
  await qi.removeIndex('users', 'users_erased_deleted');
  await qi.removeColumn('users', 'erased_at');
}
