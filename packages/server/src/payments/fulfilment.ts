import { getOffer } from '@bt/core/catalogue';
import { Op, UniqueConstraintError } from 'sequelize';
import { badRequest } from '../app/errors.js';
import type { Clock } from '../clock/index.js';
import type { CreditLedger } from '../credits/ledger.js';
import type { Database } from '../db/database.js';
import type { Invoice, Payment } from '../db/models.js';
import type { PaymentAttention } from './attention.js';
import type { Invoices } from './invoices.js';
import { PAY_MSG } from './messages.js';
import type { FailureKind, PaymentRecords } from './records.js';
import type { Subscriptions } from './subscriptions.js';

/** What the provider says was paid. */
export interface Receipt {
  amountCents: number | null;
  currency: string | null;
  /** The provider's transaction id: payment intent, capture, crypto payment, Stripe invoice. */
  transactionId: string;
  subscriptionId?: string | null;
  periodEnd?: Date | null;
}

export interface Fulfilled {
  /** True when this call credited the payment; false when an earlier (or concurrent) one did. */
  applied: boolean;
  payment: Payment;
  credits: number;
  invoice: Invoice | null;
}

export interface FulfilmentDeps {
  db: Database;
  clock: Clock;
  ledger: CreditLedger;
  records: PaymentRecords;
  invoices: Invoices;
  subscriptions: Subscriptions;
  attention: PaymentAttention;
  log: (message: string) => void;
}

/**
 * Turns a confirmed payment into credits exactly once (docs/payments.md "Idempotency"). One
 * transaction, in this lock order: the payment row (a guarded UPDATE ... WHERE status <> 'paid':
 * a replayed or concurrent callback finds it paid and does nothing), the user's balance and the
 * ledger row (CreditLedger.grant keyed `{provider}:{transaction id}`, unique with its kind), the
 * plan, then the invoice counter and the invoice. The PDF is drawn after the commit.
 */
export class Fulfilment {
  constructor(private readonly deps: FulfilmentDeps) {}

  async fulfil(payment: Payment, receipt: Receipt): Promise<Fulfilled> {
    if (payment.status === 'paid') return this.already(payment, receipt);
    const expectedCurrency = payment.currencyExpected ?? 'EUR';
    const currency = (receipt.currency ?? '').toUpperCase();
    if (currency !== expectedCurrency) {
      await this.refuse(payment, 'currency_mismatch', PAY_MSG.currencyMismatch(currency, expectedCurrency), receipt);
    }
    if (receipt.amountCents === null || receipt.amountCents !== payment.amountExpectedCents) {
      await this.refuse(payment, 'amount_mismatch', PAY_MSG.amountMismatch(receipt.amountCents, payment.amountExpectedCents ?? 0), receipt);
    }

    const { db, ledger, clock } = this.deps;
    const { Payment: Payments, User } = db.models;
    const offer = getOffer(payment.offerId!);
    const credits = payment.credits ?? 0;
    let outcome: { invoice: Invoice; replaced: string | null } | 'already' | 'account_deleted';
    try {
      outcome = await db.transaction(async (t) => {
        const user = payment.userId === null ? null : await User.findByPk(payment.userId, { transaction: t });
        if (!user || user.deletedAt) return 'account_deleted' as const;
        const [changed] = await Payments.update(
          {
            status: 'paid',
            transactionId: receipt.transactionId,
            amountReceivedCents: receipt.amountCents,
            currencyReceived: currency,
            failureKind: null,
            failureDetail: null,
            periodEnd: receipt.periodEnd ?? null,
            paidAt: clock.now(),
          },
          { where: { id: payment.id, status: { [Op.ne]: 'paid' } }, transaction: t },
        );
        if (changed !== 1) return 'already' as const;
        // A capture PayPal held PENDING is confirmed: its item for the admin closes with it.
        if (payment.provider === 'paypal') await this.deps.attention.settle('capture_pending', payment.id, 'Capture confirmée par PayPal : paiement crédité.', t);
        const granted = await ledger.grant(user.id, credits, payment.kind === 'purchase' ? 'purchase' : 'subscription', {
          reference: `${payment.provider}:${receipt.transactionId}`,
          meta: { offer_id: offer.id, amount_eur: payment.amountExpectedCents! / 100, method: payment.provider, payment: payment.reference },
          transaction: t,
        });
        // The transaction id credited another payment row already: a provider reusing an id.
        if (!granted.applied) throw new UniqueConstraintError({ message: `transaction ${receipt.transactionId} already credited` });
        let replaced: string | null = null;
        let periodEnd = receipt.periodEnd ?? null;
        if (payment.kind !== 'purchase') {
          // The plan and renewal date as they are now, not as this transaction's first read saw
          // them: on MySQL (REPEATABLE READ) two periods paid at once both read the old date and
          // one was lost. The grant above holds the row's lock; a locking read sees the latest
          // commit. SQLite runs one writer at a time and reads the same row either way.
          const current = (await User.findByPk(user.id, { transaction: t, lock: t.LOCK.UPDATE }))!;
          const applied = await this.deps.subscriptions.applyPaidPeriod(current, payment, receipt, t);
          replaced = applied.replaced;
          if (!periodEnd && !applied.stale) periodEnd = (await User.findByPk(user.id, { attributes: ['subscriptionRenewDate'], transaction: t }))?.subscriptionRenewDate ?? null;
          if (periodEnd) await Payments.update({ periodEnd }, { where: { id: payment.id }, transaction: t });
        }
        const invoice = await this.deps.invoices.issue({ payment, user, offer, credits, totalCents: receipt.amountCents!, transactionId: receipt.transactionId, periodEnd }, t);
        return { invoice, replaced };
      });
    } catch (err) {
      if (!(err instanceof UniqueConstraintError)) throw err;
      // A concurrent callback won the race on MySQL: this transaction rolled back, nothing changed.
      outcome = 'already';
    }

    if (outcome === 'already') return this.already(payment, receipt);
    if (outcome === 'account_deleted') {
      const message = `payments: ${payment.provider} payment ${payment.reference} (${receipt.transactionId}) paid for a deleted account: refund it`;
      // The money is ours and no account gets it: an item for the admin, with the refusal.
      await this.deps.records.mark(payment, 'refused', 'account_deleted', PAY_MSG.accountGone, { amountCents: receipt.amountCents, currency }, (t) =>
        this.deps.attention.record({ kind: 'account_deleted', provider: payment.provider, reference: receipt.transactionId, paymentId: payment.id, userId: payment.userId, amountCents: receipt.amountCents, currency, message }, t),
      );
      this.deps.log(message);
      return { applied: false, payment: (await this.reload(payment))!, credits: 0, invoice: null };
    }
    await this.deps.invoices.storeQuietly(outcome.invoice);
    if (outcome.replaced) await this.deps.subscriptions.endReplaced(outcome.replaced);
    this.deps.log(`payments: ${payment.provider} payment ${payment.reference} paid (${receipt.transactionId}): ${credits} credits to user ${payment.userId}, invoice ${outcome.invoice.label}`);
    return { applied: true, payment: (await this.reload(payment))!, credits, invoice: outcome.invoice };
  }

  private async already(payment: Payment, receipt: Receipt): Promise<Fulfilled> {
    const fresh = (await this.reload(payment)) ?? payment;
    // Not a replay: another provider transaction for a payment already paid (a crypto invoice
    // paid twice, from two tabs). One payment credits once; the second sum must not go unseen.
    // Not for a Stripe subscription's first period: its two events (checkout.session.completed,
    // invoice.paid) name it by the session when the session carries no invoice id.
    const twoNamesForOne = fresh.provider === 'stripe' && fresh.kind === 'subscription';
    if (fresh.status === 'paid' && fresh.transactionId && fresh.transactionId !== receipt.transactionId && !twoNamesForOne) {
      const message = `payments: ${fresh.provider} payment ${fresh.reference} paid again (${receipt.transactionId}, after ${fresh.transactionId}): not credited twice, refund it`;
      this.deps.log(message);
      // Keyed by the second transaction: its replays and concurrent copies record one item.
      await this.deps.attention.record({ kind: 'paid_twice', provider: fresh.provider, reference: receipt.transactionId, paymentId: fresh.id, userId: fresh.userId, amountCents: receipt.amountCents, currency: receipt.currency?.toUpperCase() ?? null, message });
    }
    const invoice = (await this.deps.invoices.byPayments([fresh.id])).get(fresh.id) ?? null;
    return { applied: false, payment: fresh, credits: fresh.status === 'paid' ? (fresh.credits ?? 0) : 0, invoice };
  }

  private reload(payment: Payment): Promise<Payment | null> {
    return this.deps.db.models.Payment.findByPk(payment.id);
  }

  /** Records the refusal, logs it, and answers 400 with the reason. */
  private async refuse(payment: Payment, kind: FailureKind, detail: string, receipt: Receipt): Promise<never> {
    await this.deps.records.mark(payment, 'refused', kind, detail, { amountCents: receipt.amountCents, currency: receipt.currency });
    this.deps.log(`payments: refused ${payment.provider} payment ${payment.reference} (${receipt.transactionId}): ${detail}`);
    throw badRequest(detail);
  }
}
