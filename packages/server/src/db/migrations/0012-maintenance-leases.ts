import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * Leases that make library maintenance (the admin's import and reindex) one at a time across
 * every server process on the database (src/datasets/lease.ts, docs/deployment.md): a row per
 * lease, taken by a guarded UPDATE, renewed while the work runs and given up after it; a process
 * that dies leaves a lease that expires.
 */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('maintenance_leases', {
    name: { type: DataTypes.STRING(64), primaryKey: true, allowNull: false },
    holder: { type: DataTypes.STRING(64), allowNull: true },
    expires_at: { type: DataTypes.DATE, allowNull: false },
  });
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('maintenance_leases');
}
