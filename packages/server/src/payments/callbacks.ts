import { badRequest, serviceUnavailable } from '../app/errors.js';
import type { Payment, PaymentProvider } from '../db/models.js';
import type { PaymentAttention } from './attention.js';
import type { Fulfilment, Receipt } from './fulfilment.js';
import { centsOf, ProviderError, SignatureError, type CryptoNotification, type PaymentGateways, type PayPalTransmission, type StripeEvent } from './gateways.js';
import { PAY_MSG } from './messages.js';
import { str, type Json } from './notice-values.js';
import { PayPalCallbacks } from './paypal-callbacks.js';
import type { FailureKind, PaymentRecords } from './records.js';
import type { Reversals } from './reversals.js';
import type { Subscriptions } from './subscriptions.js';

export interface CallbackDeps {
  gateways: PaymentGateways;
  records: PaymentRecords;
  fulfilment: Fulfilment;
  subscriptions: Subscriptions;
  reversals: Reversals;
  attention: PaymentAttention;
  log: (message: string) => void;
}

export interface CallbackAnswer {
  received: true;
  status?: string;
  ignored?: string;
}

/**
 * What providers tell us without the buyer (docs/payments.md "Webhooks"): Stripe events and
 * NOWPayments IPNs, signatures verified on the raw body first; PayPal's notices, which PayPal
 * verifies, in paypal-callbacks.ts. A callback about something that is
 * not a bt payment (no `bt_payment` metadata) is acknowledged and ignored; one that claims to be
 * ours but does not match is refused (400), logged and recorded.
 */
export class PaymentCallbacks {
  private readonly paypalNotices: PayPalCallbacks;

  constructor(private readonly deps: CallbackDeps) {
    this.paypalNotices = new PayPalCallbacks(deps, (err) => this.badSignature('paypal', err));
  }

  async stripe(rawBody: Uint8Array | null, signature: string): Promise<CallbackAnswer> {
    const stripe = this.deps.gateways.stripe;
    if (!stripe) throw serviceUnavailable(PAY_MSG.methodUnavailable('stripe'));
    let event: StripeEvent;
    try {
      if (!rawBody) throw new SignatureError('raw body unavailable');
      event = await stripe.parseWebhook(rawBody, signature);
    } catch (err) {
      return this.badSignature('stripe', err);
    }
    const object = event.data.object as Json;
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
        return this.sessionPaid(object);
      case 'checkout.session.async_payment_failed':
        return this.sessionOutcome(object, 'failed', 'payment_failed');
      case 'checkout.session.expired':
        return this.sessionOutcome(object, 'cancelled', 'expired');
      case 'invoice.paid':
        return this.invoicePaid(object);
      case 'invoice.payment_failed':
        return this.invoiceFailed(object);
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const id = str(object.id);
        if (id) await this.deps.subscriptions.stripeRenewalStopped(id, !(await this.renews(stripe, id, event.type.endsWith('deleted'))));
        return { received: true, status: 'ok' };
      }
      case 'charge.refunded':
        return this.chargeRefunded(object);
      case 'charge.dispute.created':
      case 'charge.dispute.updated':
      case 'charge.dispute.closed':
        return this.chargeDisputed(object);
      default:
        return { received: true, ignored: event.type };
    }
  }

  /**
   * A refund, full or partial, made in the Stripe dashboard or by its API: the charge says how
   * much of it went back in all (`amount_refunded`), so a replay or an older copy delivered late
   * changes nothing (payments/reversals.ts).
   */
  private async chargeRefunded(charge: Json): Promise<CallbackAnswer> {
    const payment = await this.stripeChargePayment(charge.payment_intent, charge.invoice);
    if (!payment) return { received: true, ignored: 'not a bt payment' };
    const refunded = numberOrNull(charge.amount_refunded);
    if (refunded === null || refunded < 0) throw badRequest(PAY_MSG.unknownPayment);
    const id = str(charge.id) ?? 'charge';
    const outcome = await this.deps.reversals.apply(payment, { refundedCents: refunded, reference: `stripe:${id}:refunded:${refunded}`, reason: 'payment_refund', detail: `charge ${id}, ${refunded} cents refunded in all` });
    return { received: true, status: outcome.status };
  }

  /**
   * A dispute (chargeback): its amount is withdrawn from the account when it opens, so the
   * credits go back then; a dispute won gives them back, a lost one keeps them taken. Closed is
   * final: a 'created' delivered after it changes nothing.
   */
  private async chargeDisputed(dispute: Json): Promise<CallbackAnswer> {
    const payment = await this.stripeChargePayment(dispute.payment_intent, null);
    if (!payment) return { received: true, ignored: 'not a bt payment' };
    const amount = numberOrNull(dispute.amount);
    const id = str(dispute.id);
    if (amount === null || amount < 0 || !id) throw badRequest(PAY_MSG.unknownPayment);
    // An inquiry (warning_needs_response, warning_under_review) withdraws no money: nothing moves
    // until it becomes a chargeback; closed without one (warning_closed), it is as won.
    if (typeof dispute.status === 'string' && dispute.status.startsWith('warning_') && dispute.status !== 'warning_closed') return { received: true, status: 'inquiry' };
    // won: the money came back; lost: it stays with the buyer; anything else (needs_response, under_review): open.
    const status = dispute.status === 'won' || dispute.status === 'warning_closed' ? 'won' : dispute.status === 'lost' ? 'lost' : 'open';
    const outcome = await this.deps.reversals.apply(payment, { dispute: { id, status, amountCents: amount }, reference: `stripe:${id}:${status}`, reason: 'payment_dispute', detail: `dispute ${id} ${status}` });
    return { received: true, status: outcome.status };
  }

  /**
   * The bt payment a Stripe charge paid: a pack's payment intent, or a subscription invoice (named
   * on the charge by older API versions; otherwise asked of Stripe). A pack whose confirmation has
   * not been processed yet (its delivery failed, Stripe retries it later) has no transaction id
   * yet: its Checkout session names it (Reversals answers 409 for it, and Stripe retries the
   * refund too). Null: not ours.
   */
  private async stripeChargePayment(paymentIntent: unknown, invoice: unknown): Promise<Payment | null> {
    const intent = str(paymentIntent);
    const candidates = [intent, str(invoice)].filter((x): x is string => !!x);
    for (const id of candidates) {
      const found = await this.deps.records.byTransaction('stripe', id);
      if (found) return found;
    }
    if (!intent) return null;
    const stripe = this.deps.gateways.stripe!;
    try {
      const invoiceId = await stripe.invoiceOfPaymentIntent(intent);
      if (invoiceId) {
        const paid = await this.deps.records.byTransaction('stripe', invoiceId);
        if (paid) return paid;
        // Its invoice.paid not processed yet (its delivery failed; Stripe retries it): the payment
        // the invoice pays, as invoice.paid finds it (the first period's, or its renewal row opened
        // now), still `created`, so Reversals answers 409 and Stripe delivers the refund again once
        // the credits are there. Before, the refund was acknowledged as none of ours and lost.
        const found = await this.invoicePayment(await stripe.invoice(invoiceId));
        return found?.payment ?? null;
      }
      const reference = await stripe.checkoutReferenceOf(intent);
      const payment = reference ? await this.deps.records.byReference(reference) : null;
      return payment?.provider === 'stripe' ? payment : null;
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      this.deps.log(`payments: the payment of Stripe payment intent ${intent} could not be read: ${err.message}`);
      throw serviceUnavailable(PAY_MSG.stripeStateUnreachable);
    }
  }

  /** PayPal's webhook (paypal-callbacks.ts). */
  paypal(rawBody: Uint8Array | null, transmission: PayPalTransmission): Promise<CallbackAnswer> {
    return this.paypalNotices.handle(rawBody, transmission);
  }

  async crypto(rawBody: Uint8Array | null, signature: string): Promise<CallbackAnswer> {
    const crypto = this.deps.gateways.crypto;
    if (!crypto) throw serviceUnavailable(PAY_MSG.methodUnavailable('crypto'));
    let note: CryptoNotification;
    try {
      if (!rawBody) throw new SignatureError('raw body unavailable');
      note = crypto.parseNotification(rawBody, signature);
    } catch (err) {
      return this.badSignature('crypto', err);
    }
    const reference = typeof note.order_id === 'string' ? note.order_id : '';
    const payment = reference ? await this.deps.records.byReference(reference) : null;
    const invoiceId = note.invoice_id === undefined || note.invoice_id === null ? null : String(note.invoice_id);
    if (!payment || payment.provider !== 'crypto' || (invoiceId && payment.providerRef && invoiceId !== payment.providerRef)) {
      return this.unknown('crypto', `order ${reference.slice(0, 80) || '(none)'}, invoice ${invoiceId ?? '(none)'}`);
    }
    const received = { amountCents: centsOf(note.price_amount), currency: typeof note.price_currency === 'string' ? note.price_currency : null };
    switch (note.payment_status) {
      case 'finished':
        await this.deps.fulfilment.fulfil(payment, { ...received, transactionId: String(note.payment_id) });
        return { received: true, status: 'paid' };
      case 'failed':
        return this.outcome(payment, 'failed', 'payment_failed', `crypto payment ${note.payment_id} failed`, received);
      case 'partially_paid':
        return this.outcome(payment, 'failed', 'partially_paid', `crypto payment ${note.payment_id} partially paid (${String(note.actually_paid ?? '?')} ${String(note.pay_currency ?? '')})`, received);
      case 'expired':
        return this.outcome(payment, 'cancelled', 'expired', `crypto payment ${note.payment_id} expired`, received);
      case 'refunded': {
        // An invoice can be paid more than once (two tabs, a short payment then a full one): only the
        // payment that credited it takes credits back. Before, refunding the second payment of an
        // invoice paid twice, as the log asks, took back the credits of the first, and a short
        // payment refunded before the full one was counted against it.
        const paymentId = String(note.payment_id);
        if (payment.status !== 'created' && payment.transactionId !== paymentId) {
          this.deps.log(`payments: crypto payment ${paymentId.slice(0, 64)} of ${payment.reference} refunded, but it is not the one that credited it (${payment.transactionId ?? 'none'}): nothing taken back`);
          return { received: true, ignored: 'not the credited payment' };
        }
        // NOWPayments refunds a payment whole (to the buyer's address): every credit it bought goes back.
        const paid = payment.amountReceivedCents ?? payment.amountExpectedCents ?? 0;
        const outcome = await this.deps.reversals.apply(payment, { refundedCents: paid, reference: `crypto:${String(note.payment_id)}:refunded`, reason: 'payment_refund', detail: `crypto payment ${String(note.payment_id)} refunded` });
        return { received: true, status: outcome.status };
      }
      default:
        // waiting, confirming, confirmed, sending: not final, nothing is credited before 'finished'.
        return { received: true, status: note.payment_status.slice(0, 32) };
    }
  }

  /**
   * Whether a subscription renews, asked of Stripe rather than read from the event: Stripe does
   * not order its events and retries failed deliveries later, so an update from before an
   * unsubscribe could arrive after it and turn the renewal back on. A deletion is final. Stripe
   * unreachable: 503, and Stripe delivers the event again later.
   */
  private async renews(stripe: NonNullable<PaymentGateways['stripe']>, subscriptionId: string, deleted: boolean): Promise<boolean> {
    if (deleted) return false;
    try {
      return await stripe.renews(subscriptionId);
    } catch (err) {
      this.deps.log(`payments: Stripe subscription ${subscriptionId} could not be read: ${(err as Error).message}`);
      throw serviceUnavailable(PAY_MSG.stripeStateUnreachable);
    }
  }

  private async sessionPaid(session: Json): Promise<CallbackAnswer> {
    const payment = await this.ours(session, session.metadata);
    if (!payment) return { received: true, ignored: 'not a bt payment' };
    if (session.payment_status !== 'paid') return { received: true, status: 'pending' };
    const subscription = session.mode === 'subscription';
    // A subscription's first period is its first invoice: invoice.paid uses the same id, so the
    // two events credit it once whichever comes first.
    const transactionId = (subscription ? str(session.invoice) : str(session.payment_intent)) ?? str(session.id)!;
    await this.fulfil(payment, { amountCents: numberOrNull(session.amount_total), currency: str(session.currency), transactionId, subscriptionId: str(session.subscription) });
    return { received: true, status: 'paid' };
  }

  private async sessionOutcome(session: Json, status: 'failed' | 'cancelled', kind: FailureKind): Promise<CallbackAnswer> {
    const payment = await this.ours(session, session.metadata);
    if (!payment) return { received: true, ignored: 'not a bt payment' };
    return this.outcome(payment, status, kind, `checkout session ${String(session.id)} ${kind}`, null);
  }

  private async invoicePaid(invoice: Json): Promise<CallbackAnswer> {
    const found = await this.invoicePayment(invoice);
    if (!found) return { received: true, ignored: 'not a bt subscription' };
    const line = Array.isArray(invoice.lines?.data) ? invoice.lines.data[0] : undefined;
    const end = numberOrNull(line?.period?.end);
    await this.fulfil(found.payment, {
      amountCents: numberOrNull(invoice.amount_paid),
      currency: str(invoice.currency),
      transactionId: str(invoice.id)!,
      subscriptionId: found.subscriptionId,
      periodEnd: end ? new Date(end * 1000) : null,
    });
    return { received: true, status: 'paid' };
  }

  private async invoiceFailed(invoice: Json): Promise<CallbackAnswer> {
    const found = await this.invoicePayment(invoice);
    if (!found) return { received: true, ignored: 'not a bt subscription' };
    return this.outcome(found.payment, 'failed', 'payment_failed', `invoice ${String(invoice.id)} payment failed`, null);
  }

  /**
   * The payment an invoice pays: the subscription's first payment (billing reason
   * subscription_create), or a renewal row created the first time the invoice is seen, priced
   * as the subscription was when it started.
   */
  private async invoicePayment(invoice: Json): Promise<{ payment: Payment; subscriptionId: string | null } | null> {
    const details = invoice.parent?.subscription_details ?? invoice.subscription_details ?? null;
    const metadata = details?.metadata ?? null;
    const subscriptionId = str(details?.subscription) ?? str(invoice.subscription);
    if (!metadata?.bt_payment || !str(invoice.id)) return null;
    const origin = await this.deps.records.byReference(String(metadata.bt_payment));
    if (!origin || origin.provider !== 'stripe' || origin.kind !== 'subscription') {
      await this.unknown('stripe', `invoice ${String(invoice.id)} of unknown payment ${String(metadata.bt_payment).slice(0, 80)}`);
      return null;
    }
    if (invoice.billing_reason === 'subscription_create') return { payment: origin, subscriptionId };
    const payment = await this.deps.records.findOrOpen({
      provider: 'stripe',
      kind: 'renewal',
      providerRef: String(invoice.id),
      userId: origin.userId,
      offerId: origin.offerId,
      credits: origin.credits,
      amountExpectedCents: origin.amountExpectedCents,
      planBefore: origin.offerId,
    });
    return { payment, subscriptionId };
  }

  /** The bt payment a Checkout session belongs to; null when it is not ours; refused when it does not match. */
  private async ours(object: Json, metadata: Json | null | undefined): Promise<Payment | null> {
    const reference = metadata?.bt_payment;
    if (typeof reference !== 'string') return null;
    const payment = await this.deps.records.byReference(reference);
    if (!payment || payment.provider !== 'stripe' || (payment.providerRef && payment.providerRef !== object.id)) {
      await this.unknown('stripe', `session ${String(object.id).slice(0, 80)} of payment ${reference.slice(0, 80)}`);
    }
    return payment;
  }

  private async fulfil(payment: Payment, receipt: Receipt): Promise<void> {
    await this.deps.fulfilment.fulfil(payment, receipt);
  }

  private async outcome(payment: Payment, status: 'failed' | 'cancelled', kind: FailureKind, detail: string, received: { amountCents: number | null; currency: string | null } | null): Promise<CallbackAnswer> {
    await this.deps.records.mark(payment, status, kind, detail, received ?? undefined);
    this.deps.log(`payments: ${payment.provider} payment ${payment.reference} ${status}: ${detail}`);
    return { received: true, status };
  }

  private async badSignature(provider: PaymentProvider, err: unknown): Promise<never> {
    if (!(err instanceof SignatureError)) throw err;
    await this.deps.records.refuseNew({ provider, kind: 'purchase', userId: null, offerId: null }, 'bad_signature', err.message);
    this.deps.log(`payments: refused ${provider} callback: ${err.message}`);
    throw badRequest(PAY_MSG.badSignature);
  }

  private async unknown(provider: PaymentProvider, detail: string): Promise<never> {
    await this.deps.records.refuseNew({ provider, kind: 'purchase', userId: null, offerId: null }, 'unknown_payment', detail);
    this.deps.log(`payments: refused ${provider} callback for an unknown payment: ${detail}`);
    throw badRequest(PAY_MSG.unknownPayment);
  }
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : null;
}
