/**
 * The three payment providers as the payment service sees them. The real implementations speak
 * each provider's HTTP API (stripe.ts with the official SDK, paypal.ts, nowpayments.ts); tests
 * point them at local servers that speak the same protocols (test/support/*-server.ts).
 */

/** A provider answered with an error or could not be reached: the caller answers 502. */
export class ProviderError extends Error {
  constructor(readonly provider: string, message: string, readonly status?: number, readonly issue?: string) {
    super(`${provider}: ${message}`);
    this.name = 'ProviderError';
  }
}

/** A callback whose signature does not verify: refused (400) and recorded. */
export class SignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignatureError';
  }
}

export interface CheckoutRequest {
  /** Our payment reference (metadata `bt_payment`, idempotency key). */
  reference: string;
  mode: 'payment' | 'subscription';
  amountCents: number;
  label: string;
  offerId: string;
  userId: number;
  customerEmail: string | null;
  /** Subscriptions renew every this many days. */
  periodDays: number;
  successUrl: string;
  cancelUrl: string;
}

/** The fields of a Stripe event the service reads (the SDK's types are wider). */
export interface StripeEvent {
  id: string;
  type: string;
  data: { object: Record<string, unknown> };
}

export interface StripeGateway {
  createCheckoutSession(request: CheckoutRequest): Promise<{ id: string; url: string }>;
  /** Verifies `Stripe-Signature` over the raw body (rejects with SignatureError) and returns the event. */
  parseWebhook(rawBody: Uint8Array, signature: string): Promise<StripeEvent>;
  /** Stops the renewal; the current period stays paid. */
  cancelAtPeriodEnd(subscriptionId: string): Promise<void>;
  /** Ends a subscription now (replaced by an upgrade). */
  cancelNow(subscriptionId: string): Promise<void>;
  /** Whether the subscription, as Stripe has it now, will renew (false when it is gone). */
  renews(subscriptionId: string): Promise<boolean>;
  /** The invoice a payment intent paid (a subscription's charge), or null (GET /v1/invoice_payments). */
  invoiceOfPaymentIntent(paymentIntentId: string): Promise<string | null>;
  /** An invoice as Stripe has it (GET /v1/invoices/{id}): a subscription charge refunded before its invoice.paid reached us. */
  invoice(invoiceId: string): Promise<Record<string, unknown>>;
  /** Our reference (`bt_payment`) on the Checkout session of a payment intent, or null (GET /v1/checkout/sessions?payment_intent=). */
  checkoutReferenceOf(paymentIntentId: string): Promise<string | null>;
}

export interface OrderRequest {
  reference: string;
  offerId: string;
  amountCents: number;
  description: string;
  returnUrl: string;
  cancelUrl: string;
}

export interface CapturedOrder {
  orderId: string;
  /** COMPLETED when the money is taken. */
  status: string;
  captureId: string | null;
  captureStatus: string | null;
  amountCents: number | null;
  currency: string | null;
  /** Our reference as the order carries it (custom_id). */
  customId: string | null;
}

/** The transmission headers PayPal sends with each webhook notice. */
export interface PayPalTransmission {
  transmissionId: string;
  transmissionTime: string;
  transmissionSig: string;
  certUrl: string;
  authAlgo: string;
}

/** A PayPal webhook event once PayPal verified it (the fields the service reads). */
export interface PayPalEvent {
  id: string;
  event_type: string;
  resource: Record<string, unknown>;
  [field: string]: unknown;
}

/** A capture as PayPal has it now (GET /v2/payments/captures/{id}). */
export interface PayPalCapture {
  id: string;
  status: string;
  /** Our reference (the order's custom_id, copied on its capture). */
  customId: string | null;
  /** The order it captured (its `up` link). */
  orderId: string | null;
  amountCents: number | null;
  currency: string | null;
}

export interface PayPalGateway {
  createOrder(request: OrderRequest): Promise<{ id: string; approveUrl: string }>;
  /** Captures an approved order (idempotent under `requestId`); an order captured already is read back. */
  captureOrder(orderId: string, requestId: string): Promise<CapturedOrder>;
  /** Whether a webhook id is configured (PAYPAL_WEBHOOK_ID): without it no notice can be verified. */
  readonly webhookConfigured: boolean;
  /**
   * Has PayPal verify a webhook notice (`POST /v1/notifications/verify-webhook-signature`: its
   * transmission headers, our webhook id, the event as received) and returns the event. Rejects
   * with SignatureError when PayPal answers FAILURE (or the notice is not one), ProviderError when
   * PayPal cannot be reached.
   */
  parseWebhook(rawBody: Uint8Array, transmission: PayPalTransmission): Promise<PayPalEvent>;
  /** A capture as PayPal has it, or null when PayPal knows none with this id (ProviderError otherwise). */
  captureOf(captureId: string): Promise<PayPalCapture | null>;
}

export interface InvoiceRequest {
  reference: string;
  /** Price in euros (NOWPayments takes a decimal amount). */
  priceCents: number;
  payCurrency: string;
  description: string;
  ipnCallbackUrl: string;
  successUrl: string;
  cancelUrl: string;
}

/** An IPN body once its signature is verified (the fields the service reads). */
export interface CryptoNotification {
  payment_id: string | number;
  invoice_id?: string | number | null;
  payment_status: string;
  order_id?: string | null;
  price_amount?: number | string;
  price_currency?: string;
  [field: string]: unknown;
}

export interface CryptoGateway {
  createInvoice(request: InvoiceRequest): Promise<{ id: string; invoiceUrl: string }>;
  /** Verifies `x-nowpayments-sig` (HMAC-SHA512 of the sorted JSON; throws SignatureError). */
  parseNotification(rawBody: Uint8Array, signature: string): CryptoNotification;
}

/** What createApp receives (main.ts builds them from the environment): null means unavailable. */
export interface PaymentGateways {
  stripe: StripeGateway | null;
  paypal: PayPalGateway | null;
  crypto: CryptoGateway | null;
}

export const NO_PAYMENT_GATEWAYS: PaymentGateways = { stripe: null, paypal: null, crypto: null };

/** 1050 → "10.50" (the providers' decimal strings). */
export function decimalAmount(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** "10.50", 10.5 → 1050; null for anything that is not a plain non-negative amount. */
export function centsOf(value: unknown): number | null {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d{1,9}(\.\d{1,8})?$/.test(text)) return null;
  const exact = Number(text) * 100;
  const cents = Math.round(exact);
  // 10.505 is not an amount in cents: refused rather than rounded to match.
  return Number.isSafeInteger(cents) && Math.abs(exact - cents) < 1e-6 ? cents : null;
}
