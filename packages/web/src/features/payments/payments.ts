/**
 * The payment rules of the web app (docs/web.md "Pricing"): the messages, the return parameters of
 * a provider (read, then removed from the address), the success page's parameters and its
 * analytics event, and what a failed call says.
 */
import { HttpError, NetworkError } from '../../api/errors.js';
import { fieldNumber, fieldString } from '../../api/fields.js';
import { OFFERS } from '../../lib/catalogue.js';
import type { KeyValueStorage } from '../../session/keyStorage.js';
import { METHOD_NAMES, euros, type PaymentMethod } from './offers.js';

export const PAYMENT_MESSAGES = {
  // the product's own sentences, verbatim
  signUpToBuy: 'Inscrivez-vous pour acheter des crédits',
  stripeUrlMissing: 'Stripe: URL manquante.',
  cryptoUrlMissing: 'Crypto: payment_url manquante.',
  paypalTokenMissing: 'PayPal: token manquant.',
  captureFailed: 'Capture échouée.',
  // ours
  confirmed: 'Paiement confirmé.',
  pending: 'Paiement reçu, en attente de confirmation : tes crédits arrivent dès qu’il est confirmé.',
  cancelled: 'Paiement annulé.',
  serverError: 'Erreur serveur',
} as const;

/** Browser storage: the offer being bought, and the PayPal order already captured. */
export const LAST_OFFER_STORAGE = 'lastOfferId';
export const PAYPAL_PROCESSED_STORAGE = 'paypalProcessed';

export interface PaymentReturn {
  payment: PaymentMethod;
  status: string;
  /** PayPal's order id, or our payment reference for crypto. */
  token: string | null;
  /** Stripe's Checkout session. */
  sessionId: string | null;
}

/** The provider's parameters (PayPal also adds PayerID): removed once read. */
const RETURN_PARAMS = ['payment', 'status', 'token', 'session_id', 'PayerID'];

/** The return parameters of a payment provider, and the address without them. */
export function readPaymentReturn(search: string): { ret: PaymentReturn | null; search: string; changed: boolean } {
  const params = new URLSearchParams(search);
  const payment = params.get('payment');
  const changed = RETURN_PARAMS.some((name) => params.has(name));
  const ret: PaymentReturn | null =
    payment === 'stripe' || payment === 'paypal' || payment === 'crypto'
      ? { payment: payment as PaymentMethod, status: params.get('status') ?? '', token: params.get('token')?.trim() || null, sessionId: params.get('session_id')?.trim() || null }
      : null;
  for (const name of RETURN_PARAMS) params.delete(name);
  const rest = params.toString();
  return { ret, search: rest ? `?${rest}` : '', changed };
}

/** The reference the server knows a returning payment by. */
export function returnReference(ret: PaymentReturn): string | null {
  return ret.payment === 'stripe' ? ret.sessionId : ret.token;
}

export interface Purchase {
  offerId: string;
  method: PaymentMethod;
  credits: number;
  priceEur: number;
  /** The payment's reference (Stripe's session, PayPal's order, the crypto payment): what /success records once. */
  reference?: string | null;
}

/** /success?offer&method&credits&price, and `ref` (the payment's reference) when known. */
export function successPath(purchase: Purchase): string {
  const params = new URLSearchParams({ offer: purchase.offerId, method: purchase.method, credits: String(purchase.credits), price: String(purchase.priceEur) });
  if (purchase.reference) params.set('ref', purchase.reference);
  return `/success?${params.toString()}`;
}

/**
 * Session storage (this tab): the payments confirmed here, by reference, and whether /success has
 * recorded their purchase_success event yet: `{ [reference]: 'confirmed' | 'recorded' }`.
 */
export const PURCHASES_STORAGE = 'btPurchases';
type PurchaseMarks = Record<string, 'confirmed' | 'recorded'>;

function readMarks(storage: KeyValueStorage): PurchaseMarks {
  try {
    const parsed = JSON.parse(storage.getItem(PURCHASES_STORAGE) ?? '{}') as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as PurchaseMarks) : {};
  } catch {
    return {};
  }
}

function writeMarks(storage: KeyValueStorage, marks: PurchaseMarks): void {
  try {
    storage.setItem(PURCHASES_STORAGE, JSON.stringify(marks));
  } catch {
    // A full or refused storage only costs the event.
  }
}

/** A payment confirmed on this tab's return from the provider: its /success may record the event. */
export function rememberConfirmedPayment(storage: KeyValueStorage, reference: string | null | undefined): void {
  const ref = reference?.trim();
  if (!ref) return;
  const marks = readMarks(storage);
  if (marks[ref]) return;
  marks[ref] = 'confirmed';
  writeMarks(storage, marks);
}

/**
 * Whether /success records purchase_success now: only for a payment reference this tab saw
 * confirmed, and once (a reload, the back button or a copied address record nothing more; nor does
 * an address without `ref`, or typed by hand). Marks the reference recorded when it answers true.
 */
export function claimPurchaseSuccess(storage: KeyValueStorage, search: string): boolean {
  const ref = new URLSearchParams(search).get('ref')?.trim();
  if (!ref) return false;
  const marks = readMarks(storage);
  if (marks[ref] !== 'confirmed') return false;
  marks[ref] = 'recorded';
  writeMarks(storage, marks);
  return true;
}

export interface SuccessView {
  offerId: string;
  offerLabel: string;
  method: string;
  methodLabel: string;
  credits: number | null;
  price: string;
  priceEur: number | null;
}

/** What /success shows from its parameters (unknown values are shown as they are, or '—'). */
export function readSuccess(search: string): SuccessView {
  const params = new URLSearchParams(search);
  const offerId = params.get('offer')?.trim() ?? '';
  const method = params.get('method')?.trim() ?? '';
  const credits = Number(params.get('credits'));
  const priceEur = Number(params.get('price'));
  const price = params.get('price') !== null && Number.isFinite(priceEur) && priceEur >= 0 ? priceEur : null;
  return {
    offerId,
    offerLabel: OFFERS.find((o) => o.id === offerId)?.label ?? (offerId || '—'),
    method,
    methodLabel: METHOD_NAMES[method as PaymentMethod] ?? (method || '—'),
    credits: params.get('credits') !== null && Number.isInteger(credits) ? credits : null,
    price: price === null ? '—' : euros(Math.round(price * 100)),
    priceEur: price,
  };
}

/** The purchase_success analytics event: offer id, method, price in euros, credits added. */
export function purchaseSuccessEvent(view: SuccessView): Record<string, unknown> {
  return { offer_id: view.offerId || null, method: view.method || null, price_eur: view.priceEur, credits: view.credits };
}

/** A confirmed payment as the API answers it (capture, status) → the success parameters. */
export function purchaseOf(answer: Record<string, unknown>, method: PaymentMethod, reference: string | null = null): Purchase | null {
  const offerId = fieldString(answer.offer_id);
  const credits = fieldNumber(answer.credits_added) ?? fieldNumber(answer.credits);
  const priceEur = fieldNumber(answer.amount_eur);
  if (!offerId || credits === null || priceEur === null) return null;
  return { offerId, method, credits, priceEur, reference };
}

/** A refused payment call: not signed in, else the server's detail; a call that got no answer says so ('Erreur réseau.'). */
export function paymentErrorMessage(error: unknown, fallback: string = PAYMENT_MESSAGES.serverError): string {
  if (error instanceof NetworkError) return error.message;
  if (error instanceof HttpError) {
    if (error.status === 401) return PAYMENT_MESSAGES.signUpToBuy;
    return error.detail || fallback;
  }
  return fallback;
}

/** A failed capture: the product's sentence, with the server's reason when it gives another. */
export function captureErrorMessage(error: unknown): string {
  const detail = error instanceof HttpError ? error.detail : undefined;
  if (error instanceof HttpError && error.status === 401) return PAYMENT_MESSAGES.signUpToBuy;
  if (!detail) return PAYMENT_MESSAGES.captureFailed;
  return detail.startsWith('Capture échouée') ? detail : `${PAYMENT_MESSAGES.captureFailed} ${detail}`;
}
