import { randomUUID } from 'node:crypto';
import { CRYPTO_MIN_PRICE_CENTS, type PaymentMethod } from '@bt/core/catalogue';
import { badRequest, HttpError, notFound, serviceUnavailable } from '../app/errors.js';
import type { Clock } from '../clock/index.js';
import type { Database } from '../db/database.js';
import type { Payment, PaymentProvider, User } from '../db/models.js';
import { effectivePlan } from '../users/presenter.js';
import type { PaymentAttention } from './attention.js';
import type { Fulfilment } from './fulfilment.js';
import { ProviderError, type PaymentGateways } from './gateways.js';
import type { Invoices } from './invoices.js';
import { PAY_MSG } from './messages.js';
import { presentInvoiceLink, presentPayment } from './presenter.js';
import { findOffer, quote, type Quote } from './quote.js';
import { PaymentRecords } from './records.js';
import { DEFAULT_CRYPTO_CURRENCY } from './settings.js';
import type { Subscriptions } from './subscriptions.js';

/** The signed-in caller: the user and the key the request was made with. */
export interface Buyer {
  user: User;
  key: string | null;
}

export interface PurchaseInput {
  offerId: string;
  userToken: string;
}

export interface PaymentDeps {
  db: Database;
  clock: Clock;
  gateways: PaymentGateways;
  records: PaymentRecords;
  fulfilment: Fulfilment;
  subscriptions: Subscriptions;
  invoices: Invoices;
  attention: PaymentAttention;
  /** Web app (return links) and API (the crypto IPN URL) base URLs; read when used. */
  urls: { publicUrl: string; apiUrl: string };
  log: (message: string) => void;
}

/**
 * Starting payments (docs/api.md "Payments"): the price comes from core's offers only, the
 * attempt is recorded before the provider is called, and every refusal is recorded too
 * (docs/payments.md). Callbacks are in callbacks.ts.
 */
export class Payments {
  constructor(private readonly deps: PaymentDeps) {}

  /** Which methods this server can take (GET /api/payment/methods, read by /pricing). */
  methods() {
    const { stripe, paypal, crypto } = this.deps.gateways;
    return {
      stripe: { available: !!stripe },
      paypal: { available: !!paypal },
      crypto: { available: !!crypto, min_price_eur: CRYPTO_MIN_PRICE_CENTS / 100, default_currency: DEFAULT_CRYPTO_CURRENCY },
    };
  }

  /** POST /api/payment/stripe/session: a Checkout session (payment for packs, subscription for plans). */
  async stripeSession(buyer: Buyer, input: PurchaseInput) {
    const stripe = this.gateway('stripe');
    const { quote: priced, planBefore } = await this.prepare(buyer, input, 'stripe');
    const payment = await this.open(buyer, priced, planBefore, 'stripe');
    const returnTo = (status: string, extra = '') => `${this.deps.urls.publicUrl}/pricing?payment=stripe&status=${status}${extra}`;
    const session = await this.call(payment, 'stripe', () =>
      stripe.createCheckoutSession({
        reference: payment.reference,
        mode: priced.kind === 'subscription' ? 'subscription' : 'payment',
        amountCents: priced.amountCents,
        label: priced.offer.label,
        offerId: priced.offer.id,
        userId: buyer.user.id,
        customerEmail: buyer.user.email,
        periodDays: priced.offer.periodDays ?? 30,
        // Stripe fills {CHECKOUT_SESSION_ID} in itself.
        successUrl: returnTo('success', '&session_id={CHECKOUT_SESSION_ID}'),
        cancelUrl: returnTo('cancel'),
      }),
    );
    await this.deps.records.attach(payment, session.id);
    return { url: session.url, id: session.id, reference: payment.reference, offer_id: priced.offer.id, amount_eur: priced.amountCents / 100, credits: priced.credits };
  }

  /** POST /api/payment/paypal/create-order: an order to approve on PayPal, captured on return. */
  async paypalCreate(buyer: Buyer, input: PurchaseInput) {
    const paypal = this.gateway('paypal');
    const { quote: priced, planBefore } = await this.prepare(buyer, input, 'paypal');
    const payment = await this.open(buyer, priced, planBefore, 'paypal');
    const base = `${this.deps.urls.publicUrl}/pricing?payment=paypal`;
    // PayPal appends token={order id} (and PayerID) to both URLs.
    const order = await this.call(payment, 'paypal', () =>
      paypal.createOrder({
        reference: payment.reference,
        offerId: priced.offer.id,
        amountCents: priced.amountCents,
        description: `bt : ${priced.offer.label}`,
        returnUrl: `${base}&status=success`,
        cancelUrl: `${base}&status=cancel`,
      }),
    );
    await this.deps.records.attach(payment, order.id);
    return { id: order.id, approve_url: order.approveUrl, reference: payment.reference, offer_id: priced.offer.id, amount_eur: priced.amountCents / 100, credits: priced.credits };
  }

  /** POST /api/payment/paypal/capture-order: takes the money of an approved order, then credits. */
  async paypalCapture(buyer: Buyer, input: { orderId: string; offerId: string; userToken: string }) {
    const paypal = this.gateway('paypal');
    await this.checkToken(buyer, input.userToken, 'paypal', input.offerId || null);
    if (!input.orderId) throw badRequest(PAY_MSG.orderMissing);
    const payment = await this.deps.records.byProviderRef('paypal', input.orderId);
    if (!payment || payment.userId !== buyer.user.id) {
      await this.refuseNew(buyer, 'paypal', input.offerId || null, 'unknown_payment', `${PAY_MSG.paymentNotFound} (${input.orderId.slice(0, 100)})`);
      throw notFound(PAY_MSG.paymentNotFound);
    }
    if (input.offerId && input.offerId !== payment.offerId) {
      await this.refuseNew(buyer, 'paypal', input.offerId, 'offer_mismatch', `${PAY_MSG.offerMismatch} (${input.offerId.slice(0, 40)} ≠ ${payment.offerId})`);
      throw badRequest(PAY_MSG.offerMismatch);
    }
    if (payment.status !== 'paid') {
      let captured;
      try {
        // Concurrent first captures share the request id (PayPal answers them alike); after a
        // refused capture each attempt is a new request (a repeated id would get the refusal again).
        captured = await paypal.captureOrder(input.orderId, payment.status === 'created' ? payment.reference : `${payment.reference}-${randomUUID()}`);
      } catch (err) {
        if (err instanceof ProviderError && err.status !== undefined && err.status >= 400 && err.status < 500) {
          await this.deps.records.mark(payment, 'failed', 'capture_failed', err.message);
          this.deps.log(`payments: PayPal capture of ${input.orderId} refused: ${err.message}`);
          throw badRequest(PAY_MSG.captureFailed(err.issue ?? null));
        }
        this.deps.log(`payments: PayPal capture of ${input.orderId} failed: ${(err as Error).message}`);
        throw new HttpError(502, PAY_MSG.captureUnreachable);
      }
      // A capture PayPal holds PENDING (an eCheck, a review on its side): the money is not ours yet.
      // The payment stays `created` (not final: a refund notice meanwhile is a 409, delivered again)
      // and the webhook's PAYMENT.CAPTURE.COMPLETED credits it, DENIED records it failed.
      if (captured.status === 'COMPLETED' && captured.captureStatus === 'PENDING' && captured.captureId) {
        const message = `payments: PayPal capture ${captured.captureId} of payment ${payment.reference} is PENDING: credited when PayPal notifies PAYMENT.CAPTURE.COMPLETED`;
        this.deps.log(message);
        // Open until PayPal completes or denies it (fulfilment and the DENIED notice close it); if
        // neither ever comes, the admin settles it.
        await this.deps.attention.record({ kind: 'capture_pending', provider: 'paypal', reference: captured.captureId, paymentId: payment.id, userId: payment.userId, amountCents: captured.amountCents, currency: captured.currency, message });
        const pending = await this.present(payment);
        // Completed meanwhile (the webhook won the race): answered as any paid capture below.
        if (pending.status !== 'paid') return { status: 'pending', message: PAY_MSG.paypalPending, offer_id: pending.offer_id, method: 'paypal', credits_added: 0, amount_eur: pending.amount_eur, credits: await this.balance(buyer), invoice: null, payment: pending };
      } else if (captured.status !== 'COMPLETED' || !['COMPLETED', 'PARTIALLY_REFUNDED', 'REFUNDED'].includes(captured.captureStatus ?? '') || !captured.captureId) {
        // A capture refunded (in part or whole) before the buyer came back was completed first: it
        // credits, and the refund's webhook (answered 409 until now, delivered again) takes its share back.
        await this.deps.records.mark(payment, 'failed', 'capture_failed', `order ${captured.status}, capture ${captured.captureStatus ?? 'none'}`);
        throw badRequest(PAY_MSG.captureFailed(captured.captureStatus ?? captured.status));
      } else {
        await this.deps.fulfilment.fulfil(payment, { amountCents: captured.amountCents, currency: captured.currency, transactionId: captured.captureId });
      }
    }
    const done = await this.present(payment);
    return { status: 'success', message: done.message, offer_id: done.offer_id, method: 'paypal', credits_added: done.credits, amount_eur: done.amount_eur, credits: await this.balance(buyer), invoice: done.invoice, payment: done };
  }

  /** POST /api/payment/crypto/create-order: a NOWPayments invoice; its IPN credits once finished. */
  async cryptoCreate(buyer: Buyer, input: PurchaseInput & { currency: string }) {
    const crypto = this.gateway('crypto');
    const payCurrency = (input.currency || DEFAULT_CRYPTO_CURRENCY).toLowerCase();
    if (!/^[a-z0-9]{2,20}$/.test(payCurrency)) throw badRequest(PAY_MSG.currencyInvalid(input.currency.slice(0, 40)));
    const { quote: priced, planBefore } = await this.prepare(buyer, input, 'crypto');
    const payment = await this.open(buyer, priced, planBefore, 'crypto');
    const base = `${this.deps.urls.publicUrl}/pricing?payment=crypto`;
    const invoice = await this.call(payment, 'crypto', () =>
      crypto.createInvoice({
        reference: payment.reference,
        priceCents: priced.amountCents,
        payCurrency,
        description: `bt : ${priced.offer.label}`,
        ipnCallbackUrl: `${this.deps.urls.apiUrl}/api/payment/crypto/ipn`,
        successUrl: `${base}&status=success&token=${payment.reference}`,
        cancelUrl: `${base}&status=cancel&token=${payment.reference}`,
      }),
    );
    await this.deps.records.attach(payment, invoice.id);
    return { payment_url: invoice.invoiceUrl, id: invoice.id, reference: payment.reference, offer_id: priced.offer.id, amount_eur: priced.amountCents / 100, credits: priced.credits };
  }

  /** GET /api/payment/status: the caller's payment behind a return link (Stripe session, PayPal order, our reference). */
  async status(buyer: Buyer, method: string, reference: string) {
    return this.present(await this.own(buyer, method, reference));
  }

  /** POST /api/payment/cancel: the buyer came back from the provider's cancel link. */
  async cancel(buyer: Buyer, method: string, reference: string) {
    const payment = await this.own(buyer, method, reference);
    if (payment.status === 'created') await this.deps.records.mark(payment, 'cancelled', 'cancelled_by_user', PAY_MSG.cancelled);
    return this.present((await this.deps.records.byReference(payment.reference)) ?? payment);
  }

  /** The caller's invoices (profile). */
  async invoices(buyer: Buyer) {
    return (await this.deps.invoices.listForUser(buyer.user.id)).map(presentInvoiceLink);
  }

  private async own(buyer: Buyer, method: string, reference: string): Promise<Payment> {
    let payment: Payment | null = null;
    if (reference.startsWith('pay_')) payment = await this.deps.records.byReference(reference);
    else if (method === 'stripe' || method === 'paypal' || method === 'crypto') payment = await this.deps.records.byProviderRef(method, reference);
    if (!payment || payment.userId !== buyer.user.id || (method && payment.provider !== method)) throw notFound(PAY_MSG.paymentNotFound);
    return payment;
  }

  private async present(payment: Payment) {
    const fresh = (await this.deps.records.byReference(payment.reference)) ?? payment;
    const invoice = (await this.deps.invoices.byPayments([fresh.id])).get(fresh.id) ?? null;
    return presentPayment(fresh, invoice);
  }

  private async balance(buyer: Buyer): Promise<number> {
    return (await this.deps.db.models.User.findByPk(buyer.user.id, { attributes: ['credits'] }))?.credits ?? 0;
  }

  private gateway<M extends PaymentMethod>(method: M): NonNullable<PaymentGateways[M]> {
    const gateway = this.deps.gateways[method];
    if (!gateway) throw serviceUnavailable(PAY_MSG.methodUnavailable(method));
    return gateway as NonNullable<PaymentGateways[M]>;
  }

  /** The caller's token, the offer and the method, checked; each refusal recorded. */
  private async prepare(buyer: Buyer, input: PurchaseInput, method: PaymentMethod): Promise<{ quote: Quote; planBefore: string }> {
    await this.checkToken(buyer, input.userToken, method, input.offerId || null);
    if (!input.offerId) {
      await this.refuseNew(buyer, method, null, 'unknown_offer', PAY_MSG.offerMissing);
      throw badRequest(PAY_MSG.offerMissing);
    }
    const offer = findOffer(input.offerId);
    if (!offer) {
      const detail = PAY_MSG.offerUnknown(input.offerId.slice(0, 40));
      await this.refuseNew(buyer, method, input.offerId, 'unknown_offer', detail);
      throw badRequest(detail);
    }
    const planBefore = effectivePlan(buyer.user, this.deps.clock.now());
    const priced = quote(offer, method, planBefore);
    if (!priced) {
      await this.refuseNew(buyer, method, offer.id, 'method_unavailable', PAY_MSG.cryptoBelowMinimum);
      throw badRequest(PAY_MSG.cryptoBelowMinimum);
    }
    this.deps.subscriptions.checkPurchase(buyer.user, offer, method);
    return { quote: priced, planBefore };
  }

  /** `user_token`, when sent, must be the key of the request itself. */
  private async checkToken(buyer: Buyer, token: string, method: PaymentMethod, offerId: string | null): Promise<void> {
    if (!token || token === buyer.key) return;
    await this.refuseNew(buyer, method, offerId, 'token_mismatch', PAY_MSG.tokenMismatch);
    throw badRequest(PAY_MSG.tokenMismatch);
  }

  private async refuseNew(buyer: Buyer, provider: PaymentProvider, offerId: string | null, kind: Parameters<PaymentRecords['refuseNew']>[1], detail: string) {
    const kindOfOffer = offerId && findOffer(offerId)?.kind === 'subscription' ? 'subscription' : 'purchase';
    await this.deps.records.refuseNew({ provider, kind: kindOfOffer, userId: buyer.user.id, offerId }, kind, detail);
    this.deps.log(`payments: refused ${provider} payment of user ${buyer.user.id}: ${detail}`);
  }

  private open(buyer: Buyer, priced: Quote, planBefore: string, provider: PaymentProvider): Promise<Payment> {
    return this.deps.records.open({
      provider,
      kind: priced.kind,
      userId: buyer.user.id,
      offerId: priced.offer.id,
      planBefore,
      credits: priced.credits,
      amountExpectedCents: priced.amountCents,
    });
  }

  /** The provider call of a new payment: a failure is recorded on it and answered 502. */
  private async call<T>(payment: Payment, method: PaymentMethod, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      await this.deps.records.mark(payment, 'failed', 'provider_error', (err as Error).message);
      this.deps.log(`payments: ${method} refused or unreachable for ${payment.reference}: ${(err as Error).message}`);
      throw new HttpError(502, PAY_MSG.providerFailed(method));
    }
  }
}
