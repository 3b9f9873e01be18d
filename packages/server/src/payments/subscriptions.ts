import { getOffer, type OfferDefinition, type PaymentMethod } from '@bt/core/catalogue';
import type { Transaction } from 'sequelize';
import { badRequest, conflict, HttpError, serviceUnavailable } from '../app/errors.js';
import { MSG } from '../app/messages.js';
import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import type { Payment, User } from '../db/models.js';
import type { EventLog } from '../events/log.js';
import { effectivePlan } from '../users/presenter.js';
import type { PaymentAttention } from './attention.js';
import type { PaymentGateways } from './gateways.js';
import { PAY_MSG } from './messages.js';

const DAY_MS = 86_400_000;

/** `dd/mm/yyyy` (UTC), as the unsubscribe answer writes the renewal date. */
export function frenchDay(date: Date): string {
  return date.toISOString().slice(0, 10).split('-').reverse().join('/');
}

/** Starter under Pro: the one order between plans (a plan is not below itself, nor below free). */
function isBelow(offerId: string, plan: string): boolean {
  return plan === 'SUB_25' && offerId === 'SUB_9';
}

export interface PaidPeriod {
  /** Stripe: the end of the period the invoice paid for. */
  periodEnd?: Date | null;
  subscriptionId?: string | null;
}

/**
 * Plans on the user (docs/payments.md "Subscriptions"). Stripe renews by itself: each paid
 * invoice sets the renewal date to the end of its period. PayPal and crypto pay one 30-day period
 * at a time, added after the current one when it is the same plan. An upgrade (Starter → Pro)
 * starts a new Pro period now and ends a Stripe Starter subscription at once.
 */
export class Subscriptions {
  constructor(private readonly deps: { db: Database; clock: Clock; gateways: PaymentGateways; events: EventLog; attention: PaymentAttention; log: (message: string) => void }) {}

  /**
   * Refuses what cannot be bought now: the plan one has and renews, Starter under Pro, and a
   * Stripe subscription of the plan already paid until a later date (a PayPal or crypto period,
   * or a Stripe subscription that no longer renews): Stripe would charge today and its period
   * would replace the renewal date, so the days already paid would be lost (docs/payments.md
   * "Subscriptions").
   */
  checkPurchase(user: User, offer: OfferDefinition, method: PaymentMethod): void {
    if (offer.kind !== 'subscription') return;
    const plan = effectivePlan(user, this.deps.clock.now());
    if (plan === offer.id && user.subscriptionAutoRenew) throw conflict(PAY_MSG.alreadySubscribed(offer.label));
    if (isBelow(offer.id, plan)) throw conflict(PAY_MSG.noDowngrade);
    if (method === 'stripe' && plan === offer.id && user.subscriptionRenewDate) throw conflict(PAY_MSG.alreadyPaidUntil(offer.label, frenchDay(user.subscriptionRenewDate)));
  }

  /**
   * In the payment's transaction: the plan, its renewal date, who renews it, Pro's priority.
   * Returns a Stripe subscription this one replaces (to end after the commit), if any.
   */
  async applyPaidPeriod(user: User, payment: Payment, period: PaidPeriod, t: Transaction): Promise<{ replaced: string | null; stale: boolean }> {
    const offer = getOffer(payment.offerId!);
    const now = this.deps.clock.now();
    const subscriptionId = period.subscriptionId ?? null;
    // A later invoice of a Stripe subscription the user has left (upgraded): they paid, they get
    // the credits, but the plan is the newer subscription's.
    if (payment.kind === 'renewal' && subscriptionId && user.subscriptionId !== subscriptionId) return { replaced: subscriptionId, stale: true };
    const current = effectivePlan(user, now);
    // A lower plan paid while a higher one is in force: checkPurchase refused it at creation, so
    // it was opened before the higher plan was bought (two tabs, a Checkout page left open) and
    // paid after. Its credits are granted (it was paid), the plan in force stays, and its own
    // Stripe subscription ends at once rather than the one just paid for.
    if (isBelow(offer.id, current)) {
      this.deps.log(`payments: ${payment.provider} payment ${payment.reference} paid ${offer.id} under ${current} for user ${user.id}: credits granted, plan kept`);
      return { replaced: payment.provider === 'stripe' ? subscriptionId : null, stale: true };
    }
    let renewDate: Date;
    const prepaid = current === offer.id && user.subscriptionRenewDate && user.subscriptionRenewDate > now ? user.subscriptionRenewDate : null;
    if (payment.provider === 'stripe' && payment.kind === 'subscription' && prepaid && user.subscriptionId !== subscriptionId) {
      // checkPurchase refuses this at creation; a Checkout page opened before a PayPal or crypto
      // period of the same plan was paid, and paid after, still gets here. The later of the two
      // dates stays (no day lost now) and the overlap Stripe billed is told, to settle by hand.
      const stripeEnd = period.periodEnd ?? new Date(now.getTime() + (offer.periodDays ?? 30) * DAY_MS);
      renewDate = stripeEnd > prepaid ? stripeEnd : prepaid;
      const message = `payments: stripe payment ${payment.reference} of user ${user.id} started ${offer.id} while it was paid until ${prepaid.toISOString()} (Stripe billed until ${stripeEnd.toISOString()}): days paid twice, to refund or extend by hand`;
      this.deps.log(message);
      await this.deps.attention.record({ kind: 'days_paid_twice', provider: 'stripe', reference: payment.reference, paymentId: payment.id, userId: user.id, amountCents: payment.amountExpectedCents, currency: payment.currencyExpected, message }, t);
    } else if (payment.provider === 'stripe' && period.periodEnd) renewDate = period.periodEnd;
    else renewDate = new Date((prepaid ?? now).getTime() + (offer.periodDays ?? 30) * DAY_MS);
    const replaced = user.subscriptionProvider === 'stripe' && user.subscriptionId && user.subscriptionId !== subscriptionId ? user.subscriptionId : null;
    await this.deps.db.models.User.update(
      {
        plan: offer.id,
        subscriptionRenewDate: renewDate,
        subscriptionAutoRenew: payment.provider === 'stripe',
        subscriptionProvider: payment.provider,
        subscriptionId,
        backtestPriority: offer.priority === true,
      },
      { where: { id: user.id }, transaction: t },
    );
    return { replaced, stale: false };
  }

  /** Ends a replaced Stripe subscription now (after the upgrade's commit); logged when it fails. */
  async endReplaced(subscriptionId: string): Promise<void> {
    const stripe = this.deps.gateways.stripe;
    if (!stripe) {
      await this.leftRunning(subscriptionId, `payments: Stripe subscription ${subscriptionId} was replaced but Stripe is not configured: cancel it in the Stripe dashboard`);
      return;
    }
    try {
      await stripe.cancelNow(subscriptionId);
    } catch (err) {
      await this.leftRunning(subscriptionId, `payments: could not cancel the replaced Stripe subscription ${subscriptionId}: ${(err as Error).message}`);
    }
  }

  /** A Stripe subscription that should have ended and may still charge: logged, and an item for the admin. */
  private async leftRunning(subscriptionId: string, message: string, userId: number | null = null): Promise<void> {
    this.deps.log(message);
    await this.deps.attention.record({ kind: 'stripe_subscription_left', provider: 'stripe', reference: subscriptionId, userId, message });
  }

  /** POST /api/profile/unsubscribe: no renewal (Stripe cancels at the period's end); credits stay. */
  async unsubscribe(user: User): Promise<{ until: Date | null }> {
    if (effectivePlan(user, this.deps.clock.now()) === 'free') throw badRequest(MSG.noSubscription);
    if (user.subscriptionProvider === 'stripe' && user.subscriptionId && user.subscriptionAutoRenew) {
      const stripe = this.deps.gateways.stripe;
      if (!stripe) throw serviceUnavailable(PAY_MSG.methodUnavailable('stripe'));
      try {
        await stripe.cancelAtPeriodEnd(user.subscriptionId);
      } catch (err) {
        this.deps.log(`payments: unsubscribe of ${user.subscriptionId} failed: ${(err as Error).message}`);
        throw new HttpError(502, PAY_MSG.stripeUnreachable);
      }
    }
    await this.deps.db.transaction(async (t) => {
      await this.deps.db.models.User.update({ subscriptionAutoRenew: false }, { where: { id: user.id }, transaction: t });
      await this.recordUnsubscription(user, t);
    });
    return { until: user.subscriptionRenewDate };
  }

  /**
   * Before an account is deleted: its Stripe subscription ends now, or Stripe would go on charging
   * the card every period for an account that no longer exists (each renewal refused as
   * account_deleted, to refund by hand). Stripe unreachable: 502 and nothing is deleted, as
   * unsubscribe does. Stripe no longer configured: logged, to cancel in the Stripe dashboard.
   */
  async endForDeletion(user: User): Promise<void> {
    if (user.subscriptionProvider !== 'stripe' || !user.subscriptionId || !user.subscriptionAutoRenew) return;
    const stripe = this.deps.gateways.stripe;
    if (!stripe) {
      await this.leftRunning(user.subscriptionId, `payments: account ${user.id} deleted with Stripe subscription ${user.subscriptionId} but Stripe is not configured: cancel it in the Stripe dashboard`, user.id);
      return;
    }
    try {
      await stripe.cancelNow(user.subscriptionId);
    } catch (err) {
      this.deps.log(`payments: cancelling ${user.subscriptionId} before deleting account ${user.id} failed: ${(err as Error).message}`);
      throw new HttpError(502, PAY_MSG.stripeUnreachable);
    }
  }

  /** The statistics' unsubscription (docs/admin.md): once per subscription period, however it was stopped. */
  private recordUnsubscription(user: User, t: Transaction): Promise<void> {
    const period = user.subscriptionRenewDate?.toISOString() ?? 'none';
    return this.deps.events.record({ kind: 'unsubscription', userId: user.id, at: this.deps.clock.now(), label: user.plan, reference: `unsub:${user.id}:${period}` }, t);
  }

  /** Stripe said the subscription will not renew (cancelled at period end, or deleted). */
  async stripeRenewalStopped(subscriptionId: string, stopped: boolean): Promise<void> {
    await this.deps.db.transaction(async (t) => {
      const where = { subscriptionProvider: 'stripe', subscriptionId };
      const renewing = stopped ? await this.deps.db.models.User.findAll({ where: { ...where, subscriptionAutoRenew: true }, transaction: t }) : [];
      await this.deps.db.models.User.update({ subscriptionAutoRenew: !stopped }, { where, transaction: t });
      for (const user of renewing) await this.recordUnsubscription(user, t);
    });
  }
}
