import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * Payments (docs/payments.md): every attempt and outcome with each provider, the numbered
 * invoices and their gapless counter, and the subscription fields of the user (provider,
 * provider subscription id, Pro's backtest priority).
 */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  const id = { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false };
  const date = (allowNull = false) => ({ type: DataTypes.DATE, allowNull });
  const text = (length: number, allowNull = false) => ({ type: DataTypes.STRING(length), allowNull });
  const int = (allowNull = false) => ({ type: DataTypes.INTEGER, allowNull });

  await qi.addColumn('users', 'subscription_provider', text(16, true));
  await qi.addColumn('users', 'subscription_id', text(191, true));
  // Pro's backtest priority, read by the job queue (only while the plan is in force).
  await qi.addColumn('users', 'backtest_priority', { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false });

  await qi.createTable('payments', {
    id,
    // Our own reference, sent to the provider (metadata, custom_id, order_id) and in return links.
    reference: text(64),
    provider: text(16),
    // purchase (pack), subscription (first period), renewal (a later period).
    kind: text(16),
    // Checkout session, PayPal order, NOWPayments invoice, Stripe invoice of a renewal.
    provider_ref: text(191, true),
    // What credits: the payment intent, capture, crypto payment or Stripe invoice id.
    transaction_id: text(191, true),
    user_id: { type: DataTypes.INTEGER, allowNull: true, references: { model: 'users', key: 'id' }, onDelete: 'SET NULL', onUpdate: 'CASCADE' },
    offer_id: text(32, true),
    plan_before: text(16, true),
    credits: int(true),
    amount_expected_cents: int(true),
    currency_expected: text(8, true),
    amount_received_cents: int(true),
    currency_received: text(16, true),
    status: text(16),
    failure_kind: text(32, true),
    failure_detail: text(255, true),
    period_end: date(true),
    paid_at: date(true),
    created_at: date(),
    updated_at: date(),
  });
  await qi.addIndex('payments', ['reference'], { unique: true, name: 'payments_reference_unique' });
  // A provider's object is recorded once: a replayed callback finds its row.
  await qi.addIndex('payments', ['provider', 'provider_ref'], { unique: true, name: 'payments_provider_ref_unique' });
  await qi.addIndex('payments', ['user_id', 'created_at'], { name: 'payments_user' });
  await qi.addIndex('payments', ['status', 'created_at'], { name: 'payments_status' });

  // One row per counter; its UPDATE takes the lock that makes invoice numbers gapless.
  await qi.createTable('invoice_counters', {
    name: { type: DataTypes.STRING(32), primaryKey: true, allowNull: false },
    value: int(),
  });
  await qi.bulkInsert('invoice_counters', [{ name: 'invoice', value: 0 }]);

  await qi.createTable('invoices', {
    id,
    number: int(),
    label: text(40),
    payment_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'payments', key: 'id' }, onDelete: 'RESTRICT', onUpdate: 'CASCADE' },
    user_id: { type: DataTypes.INTEGER, allowNull: true, references: { model: 'users', key: 'id' }, onDelete: 'SET NULL', onUpdate: 'CASCADE' },
    // Everything printed, frozen at issue time (seller, buyer, lines): the PDF can be redrawn.
    content: { type: DataTypes.TEXT, allowNull: false },
    path: text(255),
    bytes: int(true),
    issued_at: date(),
  });
  await qi.addIndex('invoices', ['number'], { unique: true, name: 'invoices_number_unique' });
  await qi.addIndex('invoices', ['payment_id'], { unique: true, name: 'invoices_payment_unique' });
  await qi.addIndex('invoices', ['user_id', 'number'], { name: 'invoices_user' });
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('invoices');
  await qi.dropTable('invoice_counters');
  await qi.dropTable('payments');
  for (const column of ['backtest_priority', 'subscription_id', 'subscription_provider']) await qi.removeColumn('users', column);
}
