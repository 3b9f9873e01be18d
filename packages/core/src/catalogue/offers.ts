/**
 * Offers and credit rules (docs/product.md §2.3, §2.6, §2.9; docs/product.md §3.9), as plain data and pure functions so the
 * server charges and the web app displays the same numbers. Prices are in euro cents.
 */

export type PlanId = 'free' | 'SUB_9' | 'SUB_25';
export type OfferKind = 'pack' | 'subscription';
export type PaymentMethod = 'stripe' | 'paypal' | 'crypto';

export interface OfferDefinition {
  readonly id: string;
  readonly kind: OfferKind;
  readonly label: string;
  readonly priceCents: number;
  /** Credits of the pack, or credits granted every period for a subscription. */
  readonly credits: number;
  /** The pack shows a 'bonus' flag (CREDIT_50). */
  readonly bonus?: boolean;
  /** Subscriptions: renewal period and the subscriber advantage rate on packs. */
  readonly periodDays?: number;
  readonly discountRate?: number;
  /** Pro gives backtest priority. */
  readonly priority?: boolean;
}

export const OFFERS: readonly OfferDefinition[] = [
  { id: 'CREDIT_5', kind: 'pack', label: 'Pack 5 crédits', priceCents: 500, credits: 5 },
  { id: 'CREDIT_10', kind: 'pack', label: 'Pack 12 crédits', priceCents: 1000, credits: 12 },
  { id: 'CREDIT_20', kind: 'pack', label: 'Pack 25 crédits', priceCents: 2000, credits: 25 },
  { id: 'CREDIT_50', kind: 'pack', label: 'Pack 75 crédits', priceCents: 5000, credits: 75, bonus: true },
  { id: 'SUB_9', kind: 'subscription', label: 'Starter', priceCents: 900, credits: 10, periodDays: 30, discountRate: 0.1 },
  { id: 'SUB_25', kind: 'subscription', label: 'Pro', priceCents: 2500, credits: 30, periodDays: 30, discountRate: 0.1, priority: true },
];

/** What one action costs, in credits (docs/product.md §2.9). */
export const CREDIT_COSTS = { backtest: 2, csvDownload: 1, extraction: 1 } as const;
export type PaidAction = keyof typeof CREDIT_COSTS;

/** A backtest cannot start below this balance. */
export const MIN_CREDITS_FOR_BACKTEST = CREDIT_COSTS.backtest;

/**
 * Free credits of a new account: 2, granted once the e-mail address is verified (immediately for a
 * third-party sign-in, whose provider vouches for the address). Chosen over the reference page's
 * "3 offered at sign-up": see docs/catalogue.md.
 */
export const SIGNUP_CREDITS = 2;

/** A subscriber's bonus on one-shot packs: 10 %, rounded up (docs/product.md §2.6). */
export const SUBSCRIBER_PACK_BONUS_RATE = 0.1;

/** Crypto payments need at least this price; CREDIT_10 is the exception (docs/product.md §2.9). */
export const CRYPTO_MIN_PRICE_CENTS = 1001;
/** CREDIT_10 paid in crypto is charged this price and gives extra credits. */
export const CRYPTO_CREDIT_10_PRICE_CENTS = 1050;
export const CRYPTO_CREDIT_10_EXTRA = { free: 1, subscriber: 2 } as const;

export const RECREATE_ACCOUNT_LIMIT = 3;
export const MAX_BACKTEST_DAYS = 31;
export const DEFAULT_SL_PIPS = 100;

const byId = new Map(OFFERS.map((o) => [o.id, o]));

export function getOffer(id: string): OfferDefinition {
  const offer = byId.get(id);
  if (!offer) throw new Error(`invalid offer: ${id} (expected one of ${OFFERS.map((o) => o.id).join(', ')})`);
  return offer;
}

export function isSubscriber(plan: PlanId | string | null | undefined): boolean {
  return plan === 'SUB_9' || plan === 'SUB_25';
}

export interface PurchaseContext {
  plan?: PlanId | string | null;
  method?: PaymentMethod;
}

/** Whether the offer can be paid with this method (crypto has a minimum, CREDIT_10 excepted). */
export function isMethodAvailable(offerId: string, method: PaymentMethod): boolean {
  const offer = getOffer(offerId);
  if (method !== 'crypto') return true;
  return offer.priceCents >= CRYPTO_MIN_PRICE_CENTS || offer.id === 'CREDIT_10';
}

/** Price actually charged, in cents. */
export function priceFor(offerId: string, context: PurchaseContext = {}): number {
  const offer = getOffer(offerId);
  if (context.method && !isMethodAvailable(offerId, context.method)) {
    throw new Error(`invalid method: ${context.method} is not available for ${offerId} (minimum ${CRYPTO_MIN_PRICE_CENTS / 100} EUR)`);
  }
  if (context.method === 'crypto' && offer.id === 'CREDIT_10') return CRYPTO_CREDIT_10_PRICE_CENTS;
  return offer.priceCents;
}

/**
 * Credits a purchase grants: a pack's credits, plus 10 % rounded up for subscribers, plus the
 * CREDIT_10 crypto extra; a subscription grants its monthly credits (no bonus on itself).
 */
export function creditsFor(offerId: string, context: PurchaseContext = {}): number {
  const offer = getOffer(offerId);
  if (context.method && !isMethodAvailable(offerId, context.method)) {
    throw new Error(`invalid method: ${context.method} is not available for ${offerId} (minimum ${CRYPTO_MIN_PRICE_CENTS / 100} EUR)`);
  }
  if (offer.kind === 'subscription') return offer.credits;
  const subscriber = isSubscriber(context.plan);
  let credits = offer.credits;
  if (subscriber) credits += Math.ceil(offer.credits * SUBSCRIBER_PACK_BONUS_RATE - 1e-9);
  if (context.method === 'crypto' && offer.id === 'CREDIT_10') {
    credits += subscriber ? CRYPTO_CREDIT_10_EXTRA.subscriber : CRYPTO_CREDIT_10_EXTRA.free;
  }
  return credits;
}

/** The plan a user has after buying this offer (packs leave the plan unchanged). */
export function planAfter(offerId: string, current: PlanId): PlanId {
  const offer = getOffer(offerId);
  return offer.kind === 'subscription' ? (offer.id as PlanId) : current;
}
