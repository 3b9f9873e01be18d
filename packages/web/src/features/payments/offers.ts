/**
 * The pricing cards (docs/web.md "Pricing") as plain data: prices and credits come from core's
 * offers (the server charges with the same functions), per payment method and plan.
 */
import {
  CRYPTO_CREDIT_10_EXTRA,
  CRYPTO_MIN_PRICE_CENTS,
  OFFERS,
  creditsFor,
  isMethodAvailable,
  isSubscriber,
  priceFor,
  type OfferDefinition,
  type PaymentMethod,
} from '../../lib/catalogue.js';

export type { PaymentMethod };

export const METHODS: readonly { id: PaymentMethod; label: string }[] = [
  { id: 'stripe', label: 'Carte bancaire' },
  { id: 'paypal', label: 'PayPal' },
  { id: 'crypto', label: 'Crypto' },
];

export const METHOD_NAMES: Record<PaymentMethod, string> = { stripe: 'Carte bancaire (Stripe)', paypal: 'PayPal', crypto: 'Crypto-monnaie' };

export type MethodAvailability = Record<PaymentMethod, boolean>;

/** GET /api/payment/methods → which methods this server takes (anything unreadable: none). */
export function readMethods(answer: unknown): MethodAvailability {
  const methods = answer && typeof answer === 'object' ? (answer as { methods?: Record<string, { available?: unknown }> }).methods : undefined;
  const available = (id: PaymentMethod) => methods?.[id]?.available === true;
  return { stripe: available('stripe'), paypal: available('paypal'), crypto: available('crypto') };
}

const EURO = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });
export const euros = (cents: number) => EURO.format(cents / 100);

/** Where a subscription card stands for this user. */
export type PlanState = 'available' | 'current' | 'upgrade' | 'lower';

export interface OfferCard {
  offer: OfferDefinition;
  priceCents: number;
  /** Credits this purchase gives this user with this method (bonus and crypto extra included). */
  credits: number;
  /** The subscriber bonus included in `credits` (packs). */
  bonus: number;
  /** The CREDIT_10 crypto extra included in `credits`. */
  cryptoExtra: number;
  /** Null: can be bought with the method; otherwise why not. */
  unavailable: string | null;
  planState: PlanState | null;
}

export const OFFER_NOTES = {
  methodOff: 'Moyen de paiement indisponible sur ce serveur',
  cryptoMinimum: `Crypto indisponible sous ${euros(CRYPTO_MIN_PRICE_CENTS)}`,
  current: 'Ton abonnement actuel',
  lower: 'Inclus dans ton abonnement Pro',
} as const;

function planState(offer: OfferDefinition, plan: string): PlanState | null {
  if (offer.kind !== 'subscription') return null;
  if (plan === offer.id) return 'current';
  if (plan === 'SUB_9' && offer.id === 'SUB_25') return 'upgrade';
  if (plan === 'SUB_25' && offer.id === 'SUB_9') return 'lower';
  return 'available';
}

/** Every offer as a card for this method, plan and server. */
export function offerCards(method: PaymentMethod, plan: string, methods: MethodAvailability, autoRenew = false): OfferCard[] {
  return OFFERS.map((offer) => {
    const payable = isMethodAvailable(offer.id, method);
    const context = { plan, method: payable ? method : undefined };
    const credits = creditsFor(offer.id, context);
    const base = creditsFor(offer.id, { plan: 'free' });
    const cryptoExtra = payable && method === 'crypto' && offer.id === 'CREDIT_10' ? (isSubscriber(plan) ? CRYPTO_CREDIT_10_EXTRA.subscriber : CRYPTO_CREDIT_10_EXTRA.free) : 0;
    const state = planState(offer, plan);
    let unavailable: string | null = null;
    if (!methods[method]) unavailable = OFFER_NOTES.methodOff;
    else if (!payable) unavailable = OFFER_NOTES.cryptoMinimum;
    // A renewing plan is not bought again; Starter is not bought under Pro (the server refuses both).
    else if ((state === 'current' && autoRenew) || state === 'lower') unavailable = state === 'current' ? OFFER_NOTES.current : OFFER_NOTES.lower;
    return {
      offer,
      priceCents: priceFor(offer.id, context),
      credits,
      bonus: offer.kind === 'pack' ? credits - base - cryptoExtra : 0,
      cryptoExtra,
      unavailable,
      planState: state,
    };
  });
}
