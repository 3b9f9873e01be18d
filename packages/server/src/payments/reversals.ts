import type { Transaction } from 'sequelize';
import { HttpError } from '../app/errors.js';
import type { Clock } from '../clock/index.js';
import type { CreditLedger } from '../credits/ledger.js';
import type { Database } from '../db/database.js';
import type { Payment } from '../db/models.js';
import { refundEvent, type EventLog } from '../events/log.js';
import type { PaymentAttention } from './attention.js';
import { PAY_MSG } from './messages.js';
import { reversedCents as reversedOf } from './money.js';
import type { CreditNotes } from './credit-notes.js';
import type { Subscriptions } from './subscriptions.js';

/** What a provider says now about the money of a paid payment. */
export interface ReversalNotice {
  /** Cents refunded so far in all (Stripe's `amount_refunded`): only ever raises what is stored. */
  refundedCents?: number;
  /** The payment's dispute as it is now: open and lost hold its amount, won gives it back. */
  dispute?: { id: string; status: 'open' | 'won' | 'lost'; amountCents: number };
  /** The ledger row's reference: one per provider fact (a cumulative refund, a dispute's state). */
  reference: string;
  reason: 'payment_refund' | 'payment_dispute';
  /** For the log: the provider's object (charge, dispute, crypto payment). */
  detail: string;
}

export interface ReversalOutcome {
  /** 'unpaid': nothing was credited, nothing to take back (recorded all the same). */
  status: 'reversed' | 'unchanged' | 'unpaid';
  /** Credits taken back by this notice, those the balance no longer held, those given back (a dispute won). */
  taken: number;
  shortfall: number;
  given: number;
  planEnded: boolean;
}

/**
 * Refunds and disputes (docs/payments.md "Refunds and disputes"): the credits bought by the share
 * of a payment that went back to the buyer are taken back, once, whatever the order and number of
 * the provider's notifications. The payment row is the state (cents refunded so far, cents held
 * by a dispute, credits owed back, shortfall) and its lock orders concurrent notices; the credits
 * owed are recomputed from the cumulative amounts each time and only the difference moves, through
 * the ledger (a `spend` row, reason payment_refund / payment_dispute; a dispute won is a grant,
 * reason dispute_won). Lock order as fulfilment: payment row → user balance → ledger, then the
 * credit note's counter and row (docs/payments.md "Credit notes").
 */
export class Reversals {
  constructor(private readonly deps: { db: Database; clock: Clock; ledger: CreditLedger; subscriptions: Subscriptions; events: EventLog; creditNotes: CreditNotes; attention: PaymentAttention; log: (message: string) => void }) {}

  /** The credits a reversed share takes back: all of them for the whole payment, otherwise rounded up (the shop's favour). */
  static creditsFor(credits: number, paidCents: number, reversedCents: number): number {
    if (credits <= 0 || paidCents <= 0 || reversedCents <= 0) return 0;
    if (reversedCents >= paidCents) return credits;
    return Math.ceil((credits * reversedCents) / paidCents);
  }

  async apply(payment: Payment, notice: ReversalNotice): Promise<ReversalOutcome> {
    try {
      return await this.applyOnce(payment, notice);
    } catch (err) {
      if (!(err instanceof HttpError && err.status === 409)) throw err;
      // The provider retries for days, then gives up: if the payment is credited after that (the
      // buyer back late), nothing takes this share back. An item for the admin, closed by itself
      // when a notice for this payment applies (below).
      await this.deps.attention.record({
        kind: 'reversal_before_payment', provider: payment.provider, reference: payment.reference, paymentId: payment.id, userId: payment.userId,
        amountCents: notice.refundedCents ?? notice.dispute?.amountCents ?? null, currency: payment.currencyExpected,
        message: `payments: ${payment.provider} payment ${payment.reference} ${notice.reason === 'payment_refund' ? 'refunded' : 'disputed'} (${notice.detail}) before it was paid: answered 409, to take back by hand if the provider stops delivering it`,
      });
      throw err;
    }
  }

  private async applyOnce(payment: Payment, notice: ReversalNotice): Promise<ReversalOutcome> {
    const { db, ledger, clock } = this.deps;
    const { Payment: Payments, User } = db.models;
    const result = await db.transaction(async (t) => {
      const row = (await Payments.findByPk(payment.id, { transaction: t, lock: t.LOCK.UPDATE }))!;
      // Not final yet (the paid callback has not arrived: Stripe does not order its events). A
      // 409 makes the provider deliver the notice again later, once the credits are there.
      if (row.status === 'created') throw new HttpError(409, PAY_MSG.reversalBeforePayment);
      await this.deps.attention.settle('reversal_before_payment', row.id, 'Notification de remboursement ou de litige appliquée après le paiement.', t);
      const refunded = Math.max(row.refundedCents, notice.refundedCents ?? 0);
      let disputeStatus = row.disputeStatus;
      let disputed = row.disputedCents;
      const dispute = notice.dispute;
      // A closed dispute is final: a 'created' delivered after its 'closed' changes nothing.
      if (dispute && !(dispute.status === 'open' && (disputeStatus === 'won' || disputeStatus === 'lost'))) {
        disputeStatus = dispute.status;
        disputed = dispute.status === 'won' ? 0 : dispute.amountCents;
      }
      const paidCents = row.amountReceivedCents ?? row.amountExpectedCents ?? 0;
      // At PayPal the money of a dispute lost leaves by a refund or reversal of the same capture,
      // notified too: the share is the larger of the two there, never their sum. At Stripe a
      // dispute's amount is withdrawn apart from the refunds.
      const reversedCents = reversedOf({ provider: row.provider, paidCents, refundedCents: refunded, disputedCents: disputed });
      const reversedBefore = reversedOf({ provider: row.provider, paidCents, refundedCents: row.refundedCents, disputedCents: row.disputedCents });
      const owed = row.status === 'paid' ? Reversals.creditsFor(row.credits ?? 0, paidCents, reversedCents) : 0;
      const delta = owed - row.creditsReversed;
      let shortfall = row.creditsShortfall;
      let taken = 0;
      let given = 0;
      let forgiven = 0;
      // A dispute won on a deleted account (or one with no user): owed back, granted to no one.
      let forgone = 0;
      const user = row.userId === null ? null : await User.findByPk(row.userId, { transaction: t });
      const meta = { payment: row.reference, offer_id: row.offerId, method: row.provider, refunded_cents: refunded, disputed_cents: disputed, paid_cents: paidCents };
      let ledgerReference: string | null = null;
      if (delta > 0) {
        if (user) {
          ledgerReference = await this.unusedReference('spend', notice.reference, t);
          const took = await ledger.takeBack(user.id, delta, notice.reason, { reference: ledgerReference, meta, transaction: t });
          taken = took.taken;
          shortfall += took.shortfall;
        } else {
          shortfall += delta;
        }
      } else if (delta < 0) {
        // A dispute won: what was never taken is forgiven first, then what was taken comes back.
        forgiven = Math.min(shortfall, -delta);
        shortfall -= forgiven;
        const back = -delta - forgiven;
        if (back > 0 && user && !user.deletedAt) {
          await ledger.grant(user.id, back, 'dispute_won', { reference: await this.unusedReference('grant', notice.reference, t), meta, transaction: t });
          given = back;
        } else forgone = back;
      }
      // PayPal notifies no "reversal cancelled": a dispute won over a capture it had reversed leaves
      // the reversal's credits taken (docs/payments.md "Limits and decisions"), for the admin.
      if (row.provider === 'paypal' && row.status === 'paid' && dispute?.status === 'won' && row.disputeStatus !== 'won' && refunded > 0) {
        const message = `payments: paypal payment ${row.reference} dispute ${dispute.id} won while ${refunded} cents stay refunded or reversed: the credits stay taken, give them back if the money came back`;
        this.deps.log(message);
        await this.deps.attention.record({ kind: 'dispute_won_after_reversal', provider: 'paypal', reference: dispute.id, paymentId: row.id, userId: row.userId, amountCents: refunded, currency: row.currencyReceived, message }, t);
      }
      const planEnded = row.status === 'paid' && reversedCents >= paidCents && paidCents > 0 && user ? await this.endPlanPaidBy(row, user.id, t) : null;
      // The money credited back on the invoice (docs/payments.md "Credit notes"): refunded, or held
      // by a dispute lost; an open dispute may still be won, and issues no note.
      const credited = row.status === 'paid' ? reversedOf({ provider: row.provider, paidCents, refundedCents: refunded, disputedCents: disputeStatus === 'lost' ? disputed : 0 }) : 0;
      const creditNote = credited > 0 ? await this.deps.creditNotes.issue({ payment: row, creditedCents: credited, reason: notice.reason === 'payment_refund' ? 'refund' : 'dispute', ledgerReference }, t) : null;
      const changes = { refundedCents: refunded, disputedCents: disputed, disputeStatus, creditsReversed: owed, creditsShortfall: shortfall };
      // Written only when something changed: a replay leaves the row, and its updated_at (the date a
      // rebuild gives the statistics' refund), as they were.
      if ((Object.keys(changes) as (keyof typeof changes)[]).some((name) => row[name] !== changes[name])) {
        await Payments.update(changes, { where: { id: row.id }, transaction: t });
      }
      // The statistics' refund of this payment (docs/admin.md): the money gone back so far, dated
      // by its last change, in the same transaction. A payment that credited nothing sold nothing.
      if (row.status === 'paid' && (reversedCents !== reversedBefore || disputeStatus !== row.disputeStatus)) {
        await this.deps.events.upsert(
          refundEvent({ reference: row.reference, provider: row.provider, userId: row.userId, offerId: row.offerId, reversedCents, creditsReversed: owed, disputeStatus, at: clock.now() }),
          t,
          { dated: true },
        );
      }
      return { status: row.status !== 'paid' ? ('unpaid' as const) : delta === 0 ? ('unchanged' as const) : ('reversed' as const), taken, shortfall: delta > 0 ? delta - taken : 0, given, forgiven, forgone, planEnded, row, creditNote };
    });
    const { row } = result;
    if (result.status === 'reversed') {
      const what = this.movement(result, row.userId);
      this.deps.log(`payments: ${row.provider} payment ${row.reference} ${notice.reason === 'payment_refund' ? 'refunded' : 'disputed'} (${notice.detail}): ${what}`);
    } else if (result.status === 'unpaid') {
      this.deps.log(`payments: ${row.provider} payment ${row.reference} (${row.status}) ${notice.reason === 'payment_refund' ? 'refunded' : 'disputed'} (${notice.detail}): it credited nothing, nothing to take back`);
    }
    if (result.creditNote) {
      this.deps.log(`payments: ${row.provider} payment ${row.reference}: credit note ${result.creditNote.label} of ${result.creditNote.amountCents} cents issued`);
      await this.deps.creditNotes.storeQuietly(result.creditNote);
    }
    if (result.planEnded) {
      this.deps.log(`payments: ${row.provider} payment ${row.reference} paid the plan in force and was reversed in full: the plan ends now`);
      if (result.planEnded.stripeSubscription) await this.deps.subscriptions.endReplaced(result.planEnded.stripeSubscription);
    }
    return { status: result.status, taken: result.taken, shortfall: result.shortfall, given: result.given, planEnded: !!result.planEnded };
  }

  /** For the log: what a reversal moved, as it happened (a dispute won on a deleted account grants nothing). */
  private movement(r: { taken: number; shortfall: number; given: number; forgiven: number; forgone: number }, userId: number | null): string {
    const parts: string[] = [];
    if (r.taken || r.shortfall) parts.push(`${r.taken} credits taken back${r.shortfall ? `, ${r.shortfall} already spent (shortfall)` : ''}`);
    if (r.forgiven) parts.push(`${r.forgiven} credits never taken back (shortfall) forgiven`);
    if (r.given) parts.push(`${r.given} credits given back`);
    if (r.forgone) parts.push(`${r.forgone} credits owed back but the account is deleted: nothing granted`);
    return `${parts.join(', ') || 'nothing moved'} for user ${userId}`;
  }

  /**
   * The ledger reference of this movement. Replays are told apart by the payment row (its lock and
   * the amounts it holds: a replay moves nothing), not by the ledger: a notice can name a fact
   * already used for another amount (a dispute's amount raised while it stays open reuses
   * `stripe:{dispute}:open`). Before, the ledger then answered "already applied" without moving
   * anything while the row counted the credits as taken, and a dispute won later gave back more
   * than was taken. A reused name gets a suffix (`:2`, `:3`…); the row's lock serialises the notices
   * of one payment, so no two pick the same.
   */
  private async unusedReference(kind: 'spend' | 'grant', reference: string, t: Transaction): Promise<string> {
    const { CreditEntry } = this.deps.db.models;
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? reference : `${reference}:${n}`;
      if (!(await CreditEntry.findOne({ where: { kind, reference: candidate }, attributes: ['id'], transaction: t }))) return candidate;
    }
  }

  /**
   * A subscription payment reversed in full ends the plan now when it paid the period in force
   * (its period end is the user's renewal date); the plan is the buyer's no longer, nor its
   * priority. A Stripe subscription is ended too (after the commit), or Stripe would charge again.
   */
  private async endPlanPaidBy(row: Payment, userId: number, t: Transaction): Promise<{ stripeSubscription: string | null } | null> {
    if (row.kind === 'purchase' || !row.periodEnd) return null;
    const { User } = this.deps.db.models;
    const user = await User.findByPk(userId, { transaction: t, lock: t.LOCK.UPDATE });
    if (!user?.subscriptionRenewDate || Math.abs(user.subscriptionRenewDate.getTime() - row.periodEnd.getTime()) > 1000) return null;
    const now = this.deps.clock.now();
    if (user.subscriptionRenewDate.getTime() <= now.getTime()) return null;
    await User.update({ subscriptionRenewDate: now, subscriptionAutoRenew: false, backtestPriority: false }, { where: { id: userId }, transaction: t });
    return { stripeSubscription: row.provider === 'stripe' && user.subscriptionProvider === 'stripe' ? user.subscriptionId : null };
  }
}
