import { badRequest, serviceUnavailable } from '../app/errors.js';
import type { Payment, PaymentProvider } from '../db/models.js';
import type { Fulfilment, Receipt } from './fulfilment.js';
import { centsOf, ProviderError, SignatureError, type CryptoNotification, type PaymentGateways, type PayPalEvent, type PayPalTransmission, type StripeEvent } from './gateways.js';
import { PAY_MSG } from './messages.js';
import { linkedId } from './paypal.js';
import type { FailureKind, PaymentRecords } from './records.js';
import type { Reversals } from './reversals.js';
import type { Subscriptions } from './subscriptions.js';

type Json = Record<string, any>;

export interface CallbackDeps {
  gateways: PaymentGateways;
  records: PaymentRecords;
  fulfilment: Fulfilment;
  subscriptions: Subscriptions;
  reversals: Reversals;
  log: (message: string) => void;
}

export interface CallbackAnswer {
  received: true;
  status?: string;
  ignored?: string;
}

const str = (value: unknown): string | null => (typeof value === 'string' && value ? value : typeof value === 'object' && value && typeof (value as Json).id === 'string' ? (value as Json).id : null);

/**
 * What providers tell us without the buyer (docs/payments.md "Webhooks"): Stripe events and
 * NOWPayments IPNs, signatures verified on the raw body first. A callback about something that is
 * not a bt payment (no `bt_payment` metadata) is acknowledged and ignored; one that claims to be
 * ours but does not match is refused (400), logged and recorded.
 */
export class PaymentCallbacks {
  constructor(private readonly deps: CallbackDeps) {}

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
      if (invoiceId) return await this.deps.records.byTransaction('stripe', invoiceId);
      const reference = await stripe.checkoutReferenceOf(intent);
      const payment = reference ? await this.deps.records.byReference(reference) : null;
      return payment?.provider === 'stripe' ? payment : null;
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      this.deps.log(`payments: the payment of Stripe payment intent ${intent} could not be read: ${err.message}`);
      throw serviceUnavailable(PAY_MSG.stripeStateUnreachable);
    }
  }

  /**
   * PayPal's webhook: the outcome of a capture PayPal held PENDING, refunds and reversals of a
   * capture, and disputes (docs/payments.md "PayPal pending captures", "Refunds and disputes"). PayPal verifies each notice itself (its transmission headers, our webhook id,
   * the event as received); nothing is read from a notice before PayPal said SUCCESS.
   */
  async paypal(rawBody: Uint8Array | null, transmission: PayPalTransmission): Promise<CallbackAnswer> {
    const paypal = this.deps.gateways.paypal;
    if (!paypal) throw serviceUnavailable(PAY_MSG.methodUnavailable('paypal'));
    if (!paypal.webhookConfigured) {
      // 503: PayPal delivers the notice again for three days, so once the id is set nothing is lost.
      this.deps.log('payments: PayPal webhook notice not verified: PAYPAL_WEBHOOK_ID is not set (the id of the webhook in the PayPal dashboard); answered 503, PayPal will deliver it again');
      throw serviceUnavailable(PAY_MSG.paypalWebhookUnconfigured);
    }
    let event: PayPalEvent;
    try {
      if (!rawBody) throw new SignatureError('raw body unavailable');
      event = await paypal.parseWebhook(rawBody, transmission);
    } catch (err) {
      if (err instanceof ProviderError) {
        this.deps.log(`payments: PayPal webhook notice not verified, PayPal unreachable: ${err.message}`);
        throw serviceUnavailable(PAY_MSG.paypalUnreachable);
      }
      return this.badSignature('paypal', err);
    }
    const resource = event.resource as Json;
    switch (event.event_type) {
      case 'PAYMENT.CAPTURE.REFUNDED':
      case 'PAYMENT.CAPTURE.REVERSED':
      // A refund PayPal has not completed (an eCheck-funded one) or that failed: logged, nothing
      // moves; its completion comes as PAYMENT.CAPTURE.REFUNDED with the refund COMPLETED.
      case 'PAYMENT.REFUND.PENDING':
      case 'PAYMENT.REFUND.FAILED':
        return this.paypalRefunded(event.event_type === 'PAYMENT.CAPTURE.REVERSED' ? 'reversed' : 'refunded', resource);
      case 'PAYMENT.CAPTURE.COMPLETED':
        return this.paypalCaptureCompleted(resource);
      case 'PAYMENT.CAPTURE.DENIED':
        return this.paypalCaptureDenied(resource);
      case 'CUSTOMER.DISPUTE.CREATED':
      case 'CUSTOMER.DISPUTE.UPDATED':
      case 'CUSTOMER.DISPUTE.RESOLVED':
        return this.paypalDisputed(resource);
      default:
        return { received: true, ignored: event.event_type.slice(0, 64) };
    }
  }

  /**
   * A capture PayPal held PENDING (an eCheck, a review) is completed: the payment credits now,
   * through the same fulfilment as the buyer's return (one guarded transition to paid, one ledger
   * row per capture), so the return and any number of copies of this notice credit once.
   */
  private async paypalCaptureCompleted(capture: Json): Promise<CallbackAnswer> {
    const captureId = str(capture.id);
    if (!captureId) throw badRequest(PAY_MSG.unknownPayment);
    if (capture.status !== 'COMPLETED') {
      this.deps.log(`payments: PayPal PAYMENT.CAPTURE.COMPLETED for capture ${captureId.slice(0, 64)} in status ${String(capture.status).slice(0, 32)}: ignored`);
      return { received: true, ignored: 'capture not completed' };
    }
    const payment = await this.paypalCapturePayment(captureId);
    if (!payment) return { received: true, ignored: 'not a bt payment' };
    const amount = (capture.amount ?? {}) as Json;
    const done = await this.deps.fulfilment.fulfil(payment, { amountCents: centsOf(amount.value), currency: str(amount.currency_code), transactionId: captureId });
    // A refund or dispute of this capture recorded before its completion reached us (PayPal does not
    // order its deliveries; a payment already marked failed records one without a 409): its share
    // of the credits just granted goes back now, from the amounts stored.
    // Reversals recompute what is owed from those amounts: a replay of this notice moves nothing more.
    const row = done.payment;
    if (row.status === 'paid' && (row.refundedCents > 0 || row.disputedCents > 0)) {
      await this.deps.reversals.apply(row, {
        refundedCents: row.refundedCents,
        reference: `paypal:${captureId}:completed:${row.refundedCents}:${row.disputedCents}`,
        reason: row.disputedCents > row.refundedCents ? 'payment_dispute' : 'payment_refund',
        detail: `capture ${captureId} completed after its refund or dispute was recorded`,
      });
    }
    return { received: true, status: done.payment.status };
  }

  /** A capture PayPal held PENDING is denied: the payment failed, nothing was (or will be) credited. */
  private async paypalCaptureDenied(capture: Json): Promise<CallbackAnswer> {
    const captureId = str(capture.id);
    if (!captureId) throw badRequest(PAY_MSG.unknownPayment);
    const payment = await this.paypalCapturePayment(captureId);
    if (!payment) return { received: true, ignored: 'not a bt payment' };
    if (payment.status === 'paid') {
      this.deps.log(`payments: PayPal capture ${captureId} of payment ${payment.reference} DENIED, but the payment is paid: left as it is, for the admin to check`);
      return { received: true, status: 'paid' };
    }
    const reason = str(((capture.status_details ?? {}) as Json).reason);
    await this.deps.records.mark(payment, 'failed', 'payment_failed', `PayPal capture ${captureId} DENIED${reason ? ` (${reason.slice(0, 40)})` : ''}`);
    this.deps.log(`payments: PayPal capture ${captureId} of payment ${payment.reference} DENIED: payment failed, nothing credited`);
    return { received: true, status: 'failed' };
  }

  /**
   * A refund (from the PayPal dashboard or its API) or a reversal (a chargeback, a payment taken
   * back by PayPal) of a capture: the refund names its capture (`up` link) and the capture's
   * refunded total so far (`seller_payable_breakdown.total_refunded_amount`), so a replay or an
   * older refund delivered late changes nothing.
   */
  private async paypalRefunded(kind: 'refunded' | 'reversed', refund: Json): Promise<CallbackAnswer> {
    const refundId = str(refund.id) ?? 'refund';
    const captureId = linkedId(refund, 'up', 'captures');
    if (!captureId) {
      this.deps.log(`payments: PayPal refund ${refundId.slice(0, 64)} names no capture: ignored`);
      return { received: true, ignored: 'no capture' };
    }
    // A refund still PENDING (an eCheck-funded refund), FAILED or CANCELLED has not taken the money
    // back (yet): nothing moves, and the log says so, for the admin to follow it up.
    if (refund.status !== undefined && refund.status !== 'COMPLETED') {
      const status = String(refund.status).slice(0, 32);
      this.deps.log(`payments: PayPal refund ${refundId.slice(0, 64)} of capture ${captureId} is ${status}: no credit taken back until PayPal notifies it COMPLETED`);
      return { received: true, status: status.toLowerCase() };
    }
    const payment = await this.paypalCapturePayment(captureId);
    if (!payment) return { received: true, ignored: 'not a bt payment' };
    const amount = (refund.amount ?? {}) as Json;
    const currency = str(amount.currency_code);
    if (currency && payment.currencyReceived && currency !== payment.currencyReceived) {
      this.deps.log(`payments: PayPal refund ${refundId} of capture ${captureId} in ${currency.slice(0, 8)}, the payment ${payment.reference} was in ${payment.currencyReceived}: refused`);
      throw badRequest(PAY_MSG.currencyMismatch(currency.slice(0, 8), payment.currencyReceived));
    }
    let total = centsOf(((refund.seller_payable_breakdown ?? {}) as Json).total_refunded_amount?.value);
    if (total === null) {
      // Without the running total, this refund's own amount is what is known to be refunded at least.
      total = centsOf(amount.value);
      this.deps.log(`payments: PayPal refund ${refundId} of capture ${captureId} without total_refunded_amount: counted as ${total ?? '?'} cents refunded in all`);
    }
    if (total === null) throw badRequest(PAY_MSG.unknownPayment);
    const outcome = await this.deps.reversals.apply(payment, { refundedCents: total, reference: `paypal:${captureId}:refunded:${total}`, reason: 'payment_refund', detail: `capture ${captureId} ${kind} (${refundId}), ${total} cents in all` });
    return { received: true, status: outcome.status };
  }

  /**
   * A dispute: PayPal holds its amount from its opening, so the credits go back then; resolved for
   * the seller (or withdrawn by the buyer) they are given back, for the buyer they stay taken. The
   * money of a dispute lost leaves by a refund or a reversal of the same capture, also notified:
   * for PayPal the share taken back is the larger of the two, never their sum (reversals.ts).
   */
  private async paypalDisputed(dispute: Json): Promise<CallbackAnswer> {
    const id = str(dispute.dispute_id);
    const transactions = Array.isArray(dispute.disputed_transactions) ? (dispute.disputed_transactions as Json[]) : [];
    let payment: Payment | null = null;
    for (const transaction of transactions) {
      const captureId = str(transaction?.seller_transaction_id);
      if (captureId && (payment = await this.paypalCapturePayment(captureId))) break;
    }
    if (!payment) return { received: true, ignored: 'not a bt payment' };
    const amount = centsOf(((dispute.dispute_amount ?? {}) as Json).value);
    if (!id || amount === null) throw badRequest(PAY_MSG.unknownPayment);
    const outcomeCode = String(((dispute.dispute_outcome ?? {}) as Json).outcome_code ?? '');
    const status = dispute.status !== 'RESOLVED' ? 'open' : ['RESOLVED_SELLER_FAVOUR', 'CANCELED_BY_BUYER', 'DENIED'].includes(outcomeCode) ? 'won' : 'lost';
    const outcome = await this.deps.reversals.apply(payment, { dispute: { id, status, amountCents: amount }, reference: `paypal:${id}:${status}`, reason: 'payment_dispute', detail: `dispute ${id} ${status}${outcomeCode ? ` (${outcomeCode.slice(0, 40)})` : ''}` });
    return { received: true, status: outcome.status };
  }

  /**
   * The bt payment a PayPal capture paid: by its capture id once credited; otherwise PayPal is
   * asked for the capture, whose custom_id is our reference (a capture whose answer we never got:
   * the payment is still `created`, and Reversals answers 409 so PayPal delivers the notice again).
   * Null: not ours, or a capture other than the one the payment was credited by.
   */
  private async paypalCapturePayment(captureId: string): Promise<Payment | null> {
    const found = await this.deps.records.byTransaction('paypal', captureId);
    if (found) return found;
    let capture;
    try {
      capture = await this.deps.gateways.paypal!.captureOf(captureId);
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      this.deps.log(`payments: the payment of PayPal capture ${captureId} could not be read: ${err.message}`);
      throw serviceUnavailable(PAY_MSG.paypalUnreachable);
    }
    const payment = capture?.customId ? await this.deps.records.byReference(capture.customId) : null;
    if (!payment || payment.provider !== 'paypal' || (capture!.orderId && payment.providerRef && capture!.orderId !== payment.providerRef)) return null;
    if (payment.transactionId && payment.transactionId !== captureId) {
      this.deps.log(`payments: PayPal capture ${captureId} of payment ${payment.reference} is not the one it was credited by (${payment.transactionId}): nothing to take back`);
      return null;
    }
    return payment;
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
