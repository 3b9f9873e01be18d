import { badRequest, serviceUnavailable } from '../app/errors.js';
import type { Payment } from '../db/models.js';
import type { CallbackAnswer, CallbackDeps } from './callbacks.js';
import { centsOf, ProviderError, SignatureError, type PayPalEvent, type PayPalTransmission } from './gateways.js';
import { PAY_MSG } from './messages.js';
import { linkedId } from './paypal.js';
import { str, type Json } from './notice-values.js';

/**
 * PayPal's webhook: the outcome of a capture PayPal held PENDING, refunds and reversals of a
 * capture, and disputes (docs/payments.md "PayPal pending captures", "Refunds and disputes").
 * PayPal verifies each notice itself (its transmission headers, our webhook id, the event as
 * received); nothing is read from a notice before PayPal said SUCCESS. A notice that fails the
 * check is refused and recorded as every provider's (`badSignature`, shared with PaymentCallbacks).
 */
export class PayPalCallbacks {
  constructor(
    private readonly deps: CallbackDeps,
    private readonly badSignature: (err: unknown) => Promise<never>,
  ) {}

  async handle(rawBody: Uint8Array | null, transmission: PayPalTransmission): Promise<CallbackAnswer> {
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
      return this.badSignature(err);
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
      const message = `payments: PayPal capture ${captureId} of payment ${payment.reference} DENIED, but the payment is paid: left as it is, for the admin to check`;
      this.deps.log(message);
      await this.deps.attention.record({ kind: 'capture_denied_after_paid', provider: 'paypal', reference: captureId, paymentId: payment.id, userId: payment.userId, amountCents: payment.amountReceivedCents, currency: payment.currencyReceived, message });
      return { received: true, status: 'paid' };
    }
    const reason = str(((capture.status_details ?? {}) as Json).reason);
    await this.deps.records.mark(payment, 'failed', 'payment_failed', `PayPal capture ${captureId} DENIED${reason ? ` (${reason.slice(0, 40)})` : ''}`, undefined, (t) =>
      this.deps.attention.settle('capture_pending', payment.id, 'Capture refusée par PayPal : rien n’a été crédité.', t),
    );
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
    // Letter case is no other currency (the payment's own was checked as "EUR" whatever its case).
    const currency = str(amount.currency_code)?.toUpperCase();
    if (currency && payment.currencyReceived && currency !== payment.currencyReceived.toUpperCase()) {
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
}
