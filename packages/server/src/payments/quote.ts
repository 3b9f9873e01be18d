import { OFFERS, creditsFor, isMethodAvailable, priceFor, type OfferDefinition, type PaymentMethod } from '@bt/core/catalogue';

/** What a payment is for, priced on the server only from core's offers (docs/payments.md). */
export interface Quote {
  offer: OfferDefinition;
  method: PaymentMethod;
  amountCents: number;
  /** Credits granted when paid: the pack's (subscriber bonus, crypto extra included) or a period's. */
  credits: number;
  kind: 'purchase' | 'subscription';
}

export function findOffer(id: string): OfferDefinition | null {
  return OFFERS.find((offer) => offer.id === id) ?? null;
}

/** The price and credits of an offer for this buyer and method; null when the method cannot pay it. */
export function quote(offer: OfferDefinition, method: PaymentMethod, plan: string): Quote | null {
  if (!isMethodAvailable(offer.id, method)) return null;
  return {
    offer,
    method,
    amountCents: priceFor(offer.id, { method, plan }),
    credits: creditsFor(offer.id, { method, plan }),
    kind: offer.kind === 'subscription' ? 'subscription' : 'purchase',
  };
}
