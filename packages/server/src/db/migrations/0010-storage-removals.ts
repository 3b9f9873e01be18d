import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * Removals of files the storage still owes (src/storage/removals.ts, docs/server.md "Files left
 * behind"): written in the transaction that deletes the row naming the files (a result, a
 * personal strategy, a run given up), removed once the files are gone. A removal that fails (S3
 * answering 500, a local disk error) or a process that dies before it leaves its line here, and
 * the sweep retries it later.
 */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('storage_removals', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
    path: { type: DataTypes.STRING(255), allowNull: false },
    attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    last_error: { type: DataTypes.STRING(500), allowNull: true },
    next_at: { type: DataTypes.DATE, allowNull: false },
    created_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('storage_removals', ['next_at'], { name: 'storage_removals_next' });
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('storage_removals');
}
