import { randomBytes } from 'node:crypto';
import { Op, UniqueConstraintError, type Transaction } from 'sequelize';
import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import type { Payment, PaymentKind, PaymentProvider, PaymentStatus } from '../db/models.js';
import { failedPaymentEvent, type EventLog } from '../events/log.js';

export type FailureKind =
  | 'bad_signature'
  | 'unknown_offer'
  | 'unknown_payment'
  | 'method_unavailable'
  | 'token_mismatch'
  | 'offer_mismatch'
  | 'amount_mismatch'
  | 'currency_mismatch'
  | 'provider_error'
  | 'payment_failed'
  | 'capture_failed'
  | 'partially_paid'
  | 'expired'
  | 'cancelled_by_user'
  | 'account_deleted';

export interface NewPayment {
  provider: PaymentProvider;
  kind: PaymentKind;
  userId: number | null;
  offerId: string | null;
  planBefore?: string | null;
  credits?: number | null;
  amountExpectedCents?: number | null;
  providerRef?: string | null;
  reference?: string;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * The `payments` table: one row per attempt, from creation to its outcome (docs/payments.md).
 * Admin statistics and billing read it with SQL; the ledger stays the truth about credits.
 */
export class PaymentRecords {
  /** Failed and refused attempts also go to the admin statistics' event log (docs/admin.md). */
  constructor(private readonly db: Database, private readonly clock: Clock, private readonly events: EventLog) {}

  static newReference(): string {
    return `pay_${randomBytes(12).toString('base64url')}`;
  }

  /** A payment about to be sent to its provider (status created). */
  open(input: NewPayment): Promise<Payment> {
    return this.db.transaction((t) => this.insert(input, 'created', t));
  }

  /** A refusal with no payment to attach it to (bad signature, unknown offer, another user's token). */
  refuseNew(input: NewPayment, failureKind: FailureKind, detail: string): Promise<Payment> {
    return this.db.transaction(async (t) => {
      const payment = await this.insert(input, 'refused', t, failureKind, detail);
      await this.recordFailure(payment, failureKind, t);
      return payment;
    });
  }

  /**
   * The row of a provider's object, created the first time it is seen (a Stripe renewal invoice):
   * concurrent callbacks for the same object end up on the same row.
   */
  async findOrOpen(input: NewPayment & { providerRef: string }): Promise<Payment> {
    const existing = await this.byProviderRef(input.provider, input.providerRef);
    if (existing) return existing;
    try {
      return await this.open(input);
    } catch (err) {
      if (!(err instanceof UniqueConstraintError)) throw err;
      const winner = await this.byProviderRef(input.provider, input.providerRef);
      if (!winner) throw err;
      return winner;
    }
  }

  async attach(payment: Payment, providerRef: string): Promise<void> {
    await this.db.transaction((t) => payment.update({ providerRef }, { transaction: t }));
  }

  /**
   * Records an outcome other than paid; a paid payment keeps its status. `alongside` writes in the
   * same transaction (an item for the admin, payments/attention.ts).
   */
  async mark(payment: Payment, status: Exclude<PaymentStatus, 'paid' | 'created'>, failureKind: FailureKind, detail: string, received?: { amountCents: number | null; currency: string | null }, alongside?: (t: Transaction) => Promise<void>): Promise<void> {
    const changes = {
      status,
      failureKind,
      failureDetail: clip(detail, 255),
      ...(received ? { amountReceivedCents: received.amountCents, currencyReceived: received.currency ? clip(received.currency, 16) : null } : {}),
    };
    await this.db.transaction(async (t) => {
      const [changed] = await this.db.models.Payment.update(changes, { where: { id: payment.id, status: { [Op.ne]: 'paid' } }, transaction: t });
      if (changed === 1 && (status === 'failed' || status === 'refused')) await this.recordFailure(payment, failureKind, t);
      if (alongside) await alongside(t);
    });
  }

  /** The statistics' failed payment, once per attempt (its reference), in the attempt's transaction. */
  private recordFailure(payment: Payment, failureKind: FailureKind, t: Transaction): Promise<void> {
    return this.events.upsert(
      failedPaymentEvent({ reference: payment.reference, provider: payment.provider, userId: payment.userId, offerId: payment.offerId, amountCents: payment.amountExpectedCents, failureKind, at: this.clock.now() }),
      t,
    );
  }

  byReference(reference: string): Promise<Payment | null> {
    return this.db.models.Payment.findOne({ where: { reference } });
  }

  /** The payment a provider transaction (payment intent, invoice, capture, crypto payment) paid. */
  byTransaction(provider: PaymentProvider, transactionId: string): Promise<Payment | null> {
    return this.db.models.Payment.findOne({ where: { provider, transactionId }, order: [['id', 'ASC']] });
  }

  byProviderRef(provider: PaymentProvider, providerRef: string): Promise<Payment | null> {
    return this.db.models.Payment.findOne({ where: { provider, providerRef } });
  }

  /** A user's payments, newest first. */
  forUser(userId: number, limit = 50): Promise<Payment[]> {
    return this.db.models.Payment.findAll({ where: { userId }, order: [['id', 'DESC']], limit });
  }

  private insert(input: NewPayment, status: PaymentStatus, t: Transaction, failureKind?: FailureKind, detail?: string): Promise<Payment> {
    return this.db.models.Payment.create(
      {
        reference: input.reference ?? PaymentRecords.newReference(),
        provider: input.provider,
        kind: input.kind,
        providerRef: input.providerRef ?? null,
        userId: input.userId,
        offerId: input.offerId ? clip(input.offerId, 32) : null,
        planBefore: input.planBefore ?? null,
        credits: input.credits ?? null,
        amountExpectedCents: input.amountExpectedCents ?? null,
        currencyExpected: input.amountExpectedCents === undefined || input.amountExpectedCents === null ? null : 'EUR',
        status,
        failureKind: failureKind ?? null,
        failureDetail: detail ? clip(detail, 255) : null,
        createdAt: this.clock.now(),
        updatedAt: this.clock.now(),
      },
      { transaction: t },
    );
  }
}
