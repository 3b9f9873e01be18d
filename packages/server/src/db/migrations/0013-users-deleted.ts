import type { QueryInterface } from 'sequelize';

/**
 * Deleted accounts found by an index (docs/server.md, "Deleting an account"): every server's minute
 * sweep looks for deleted accounts that still own rows, and without this index each look read the
 * whole users table, once a minute per server.
 */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.addIndex('users', ['deleted_at'], { name: 'users_deleted_at' });
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.removeIndex('users', 'users_deleted_at');
}
