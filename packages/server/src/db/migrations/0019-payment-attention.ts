import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * Payment situations that need the operator (docs/payments.md "Situations for the admin"): money
 * to give back or a decision to take, recorded where they are detected instead of only logged.
 * One row per fact: unique (kind, provider, reference), so a replayed notice, or ten copies at
 * once, record one item. `reference` is a provider's id (exact: binary on MySQL, as SQLite
 * compares). Open while `resolved_at` is null.
 */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  const text = (length: number, allowNull = false) => ({ type: DataTypes.STRING(length), allowNull });
  await qi.createTable('payment_attention', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
    kind: text(32),
    provider: text(16),
    reference: text(191),
    payment_id: { type: DataTypes.INTEGER, allowNull: true, references: { model: 'payments', key: 'id' }, onDelete: 'SET NULL', onUpdate: 'CASCADE' },
    user_id: { type: DataTypes.INTEGER, allowNull: true, references: { model: 'users', key: 'id' }, onDelete: 'SET NULL', onUpdate: 'CASCADE' },
    amount_cents: { type: DataTypes.INTEGER, allowNull: true },
    currency: text(16, true),
    // The English sentence the log writes for it (the French label comes from the kind).
    message: text(500),
    created_at: { type: DataTypes.DATE, allowNull: false },
    resolved_at: { type: DataTypes.DATE, allowNull: true },
    // The admin who closed it; null with resolved_at set: closed by the provider's own later notice.
    resolved_by: { type: DataTypes.INTEGER, allowNull: true, references: { model: 'users', key: 'id' }, onDelete: 'SET NULL', onUpdate: 'CASCADE' },
    note: text(500, true),
  });
  if (qi.sequelize.getDialect() === 'mysql') {
    await qi.sequelize.query('ALTER TABLE payment_attention MODIFY reference VARCHAR(191) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL');
  }
  await qi.addIndex('payment_attention', ['kind', 'provider', 'reference'], { unique: true, name: 'payment_attention_fact_unique' });
  await qi.addIndex('payment_attention', ['resolved_at', 'id'], { name: 'payment_attention_open' });
  await qi.addIndex('payment_attention', ['payment_id'], { name: 'payment_attention_payment' });
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('payment_attention');
}
