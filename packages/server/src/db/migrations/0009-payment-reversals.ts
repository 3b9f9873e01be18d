import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * Refunds and disputes of a paid payment (docs/payments.md "Refunds and disputes"): how much of it
 * the provider gave back (refunds, cumulative) or holds (a dispute open or lost), the state of its
 * dispute, and the credits taken back for it: owed in all, and how many of those the balance no
 * longer held (already spent: the shortfall, for the admin). A charge is found by its provider's
 * transaction id (Stripe's payment intent or invoice), hence the index.
 */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  const count = { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 };
  await qi.addColumn('payments', 'refunded_cents', count);
  await qi.addColumn('payments', 'disputed_cents', count);
  // open, won, lost (null: never disputed). A closed dispute is final: a late 'created' is ignored.
  await qi.addColumn('payments', 'dispute_status', { type: DataTypes.STRING(16), allowNull: true });
  await qi.addColumn('payments', 'credits_reversed', count);
  await qi.addColumn('payments', 'credits_shortfall', count);
  await qi.addIndex('payments', ['provider', 'transaction_id'], { name: 'payments_transaction' });
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.removeIndex('payments', 'payments_transaction');
  for (const column of ['credits_shortfall', 'credits_reversed', 'dispute_status', 'disputed_cents', 'refunded_cents']) await qi.removeColumn('payments', column);
}
