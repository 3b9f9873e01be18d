import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * Credit notes (factures d'avoir, docs/payments.md "Credit notes"): one per share of an invoiced
 * payment refunded (or lost in dispute), numbered by their own gapless counter row, beside the
 * invoices'. `credited_cents` is the payment's amount credited so far, this note included: unique
 * per payment, so the same state of a payment never gets two notes.
 */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  const int = (allowNull = false) => ({ type: DataTypes.INTEGER, allowNull });
  const text = (length: number, allowNull = false) => ({ type: DataTypes.STRING(length), allowNull });
  await qi.bulkInsert('invoice_counters', [{ name: 'credit_note', value: 0 }]);
  await qi.createTable('credit_notes', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
    number: int(),
    label: text(40),
    invoice_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'invoices', key: 'id' }, onDelete: 'RESTRICT', onUpdate: 'CASCADE' },
    payment_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'payments', key: 'id' }, onDelete: 'RESTRICT', onUpdate: 'CASCADE' },
    user_id: { type: DataTypes.INTEGER, allowNull: true, references: { model: 'users', key: 'id' }, onDelete: 'SET NULL', onUpdate: 'CASCADE' },
    // TTC cents this note credits back, and the payment's total credited with it.
    amount_cents: int(),
    credited_cents: int(),
    currency: text(8),
    // The ledger row written by the same notice (null: a dispute lost after its opening took the credits).
    ledger_reference: text(191, true),
    // Everything printed, frozen at issue time: the PDF can be redrawn.
    content: { type: DataTypes.TEXT, allowNull: false },
    path: text(255),
    bytes: int(true),
    issued_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('credit_notes', ['number'], { unique: true, name: 'credit_notes_number_unique' });
  await qi.addIndex('credit_notes', ['payment_id', 'credited_cents'], { unique: true, name: 'credit_notes_payment_unique' });
  await qi.addIndex('credit_notes', ['invoice_id'], { name: 'credit_notes_invoice' });
  await qi.addIndex('credit_notes', ['user_id', 'number'], { name: 'credit_notes_user' });
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('credit_notes');
  await qi.bulkDelete('invoice_counters', { name: 'credit_note' });
}
