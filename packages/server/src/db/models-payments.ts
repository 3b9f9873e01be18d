import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** Models of payments (migration 0004): attempts and outcomes, invoices and their counter. */

export type PaymentProvider = 'stripe' | 'paypal' | 'crypto';
export type PaymentKind = 'purchase' | 'subscription' | 'renewal';
/**
 * created: sent to the provider; paid: credited; failed: the provider says the payment failed;
 * refused: we refused it (signature, offer, amount, currency, token); cancelled: abandoned or expired.
 */
export type PaymentStatus = 'created' | 'paid' | 'failed' | 'refused' | 'cancelled';

export class Payment extends Model<InferAttributes<Payment>, InferCreationAttributes<Payment>> {
  declare id: CreationOptional<number>;
  declare reference: string;
  declare provider: PaymentProvider;
  declare kind: PaymentKind;
  declare providerRef: string | null;
  declare transactionId: CreationOptional<string | null>;
  declare userId: number | null;
  declare offerId: string | null;
  declare planBefore: CreationOptional<string | null>;
  /** Credits the payment grants, quoted when it was created (subscriber bonus included). */
  declare credits: number | null;
  declare amountExpectedCents: number | null;
  declare currencyExpected: string | null;
  declare amountReceivedCents: CreationOptional<number | null>;
  declare currencyReceived: CreationOptional<string | null>;
  declare status: PaymentStatus;
  declare failureKind: CreationOptional<string | null>;
  declare failureDetail: CreationOptional<string | null>;
  /** Subscriptions: the end of the period this payment paid for. */
  declare periodEnd: CreationOptional<Date | null>;
  declare paidAt: CreationOptional<Date | null>;
  /** Refunds and disputes (migration 0009, payments/reversals.ts): cents refunded so far (cumulative), held by a dispute open or lost. */
  declare refundedCents: CreationOptional<number>;
  declare disputedCents: CreationOptional<number>;
  declare disputeStatus: CreationOptional<'open' | 'won' | 'lost' | null>;
  /** Credits owed back for the refunded and disputed share, and how many of them the balance no longer held. */
  declare creditsReversed: CreationOptional<number>;
  declare creditsShortfall: CreationOptional<number>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export class InvoiceCounter extends Model<InferAttributes<InvoiceCounter>, InferCreationAttributes<InvoiceCounter>> {
  declare name: string;
  declare value: number;
}

export class Invoice extends Model<InferAttributes<Invoice>, InferCreationAttributes<Invoice>> {
  declare id: CreationOptional<number>;
  declare number: number;
  declare label: string;
  declare paymentId: number;
  declare userId: number | null;
  /** JSON: what the PDF prints (payments/invoice-content.ts). */
  declare content: string;
  /** Relative to the file storage: `invoices/{year}/{label}.pdf`. */
  declare path: string;
  declare bytes: CreationOptional<number | null>;
  declare issuedAt: Date;
}

/** A credit note (facture d'avoir, migration 0016, payments/credit-notes.ts): a refunded share of an invoice. */
export class CreditNote extends Model<InferAttributes<CreditNote>, InferCreationAttributes<CreditNote>> {
  declare id: CreationOptional<number>;
  declare number: number;
  declare label: string;
  declare invoiceId: number;
  declare paymentId: number;
  declare userId: number | null;
  declare amountCents: number;
  /** The payment's amount credited so far, this note included (unique per payment). */
  declare creditedCents: number;
  declare currency: string;
  declare ledgerReference: string | null;
  /** JSON: what the PDF prints (payments/invoice-content.ts). */
  declare content: string;
  /** Relative to the file storage: `invoices/{year}/{label}.pdf`. */
  declare path: string;
  declare bytes: CreationOptional<number | null>;
  declare issuedAt: Date;
}

/** A payment situation for the admin (migration 0019, payments/attention.ts): open until resolved. */
export class PaymentAttentionItem extends Model<InferAttributes<PaymentAttentionItem>, InferCreationAttributes<PaymentAttentionItem>> {
  declare id: CreationOptional<number>;
  declare kind: string;
  declare provider: string;
  /** The provider's id of the fact (a transaction, a capture, a dispute); unique with kind and provider. */
  declare reference: string;
  declare paymentId: number | null;
  declare userId: number | null;
  declare amountCents: number | null;
  declare currency: string | null;
  /** The English sentence the log writes for it. */
  declare message: string;
  declare createdAt: Date;
  declare resolvedAt: CreationOptional<Date | null>;
  declare resolvedBy: CreationOptional<number | null>;
  declare note: CreationOptional<string | null>;
}

export interface PaymentModels {
  Payment: typeof Payment;
  InvoiceCounter: typeof InvoiceCounter;
  Invoice: typeof Invoice;
  CreditNote: typeof CreditNote;
  PaymentAttention: typeof PaymentAttentionItem;
}

const str = (length: number, allowNull = false) => ({ type: DataTypes.STRING(length), allowNull });
const int = (allowNull = false) => ({ type: DataTypes.INTEGER, allowNull });

/** Binds the payment models to one Sequelize instance (subclassed per instance, as models.ts does). */
export function initPaymentModels(sequelize: Sequelize): PaymentModels {
  const P = class extends Payment {};
  P.init(
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      reference: str(64),
      provider: str(16),
      kind: str(16),
      providerRef: str(191, true),
      transactionId: str(191, true),
      userId: int(true),
      offerId: str(32, true),
      planBefore: str(16, true),
      credits: int(true),
      amountExpectedCents: int(true),
      currencyExpected: str(8, true),
      amountReceivedCents: int(true),
      currencyReceived: str(16, true),
      status: str(16),
      failureKind: str(32, true),
      failureDetail: str(255, true),
      periodEnd: { type: DataTypes.DATE, allowNull: true },
      paidAt: { type: DataTypes.DATE, allowNull: true },
      refundedCents: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      disputedCents: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      disputeStatus: str(16, true),
      creditsReversed: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      creditsShortfall: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    { sequelize, tableName: 'payments', modelName: 'Payment', underscored: true, createdAt: 'created_at', updatedAt: 'updated_at' },
  );
  const C = class extends InvoiceCounter {};
  C.init(
    { name: { type: DataTypes.STRING(32), primaryKey: true }, value: int() },
    { sequelize, tableName: 'invoice_counters', modelName: 'InvoiceCounter', timestamps: false },
  );
  const I = class extends Invoice {};
  I.init(
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      number: int(),
      label: str(40),
      paymentId: int(),
      userId: int(true),
      content: { type: DataTypes.TEXT, allowNull: false },
      path: str(255),
      bytes: int(true),
      issuedAt: { type: DataTypes.DATE, allowNull: false },
    },
    { sequelize, tableName: 'invoices', modelName: 'Invoice', underscored: true, timestamps: false },
  );
  const N = class extends CreditNote {};
  N.init(
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      number: int(),
      label: str(40),
      invoiceId: int(),
      paymentId: int(),
      userId: int(true),
      amountCents: int(),
      creditedCents: int(),
      currency: str(8),
      ledgerReference: str(191, true),
      content: { type: DataTypes.TEXT, allowNull: false },
      path: str(255),
      bytes: int(true),
      issuedAt: { type: DataTypes.DATE, allowNull: false },
    },
    { sequelize, tableName: 'credit_notes', modelName: 'CreditNote', underscored: true, timestamps: false },
  );
  const A = class extends PaymentAttentionItem {};
  A.init(
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      kind: str(32),
      provider: str(16),
      reference: str(191),
      paymentId: int(true),
      userId: int(true),
      amountCents: int(true),
      currency: str(16, true),
      message: str(500),
      createdAt: { type: DataTypes.DATE, allowNull: false },
      resolvedAt: { type: DataTypes.DATE, allowNull: true },
      resolvedBy: int(true),
      note: str(500, true),
    },
    { sequelize, tableName: 'payment_attention', modelName: 'PaymentAttention', underscored: true, timestamps: false },
  );
  return { Payment: P, InvoiceCounter: C, Invoice: I, CreditNote: N, PaymentAttention: A };
}
