/**
 * The catalogue as the web app reads it: strategies, parameters, symbols and timeframes all come
 * from @bt/core/catalogue; this file adds only lookups for display.
 */
import { STRATEGIES, SYMBOLS, findStrategy } from '@bt/core/catalogue';
import type { StrategyDefinition, SymbolDefinition } from '@bt/core/catalogue';

// Offers and their rules (prices, credits, subscriber bonus, crypto minimum): the server charges
// with the same functions.
export {
  OFFERS,
  CRYPTO_MIN_PRICE_CENTS,
  CRYPTO_CREDIT_10_EXTRA,
  SUBSCRIBER_PACK_BONUS_RATE,
  creditsFor,
  isMethodAvailable,
  isSubscriber,
  priceFor,
} from '@bt/core/catalogue';
export type { OfferDefinition, PaymentMethod } from '@bt/core/catalogue';

export function strategyLabel(key: string): string {
  return findStrategy(key)?.label ?? key;
}

/** Official strategies sorted by their French label (the picker's order), sorted once. */
export const OFFICIAL_STRATEGIES: readonly StrategyDefinition[] = [...STRATEGIES].sort((a, b) => a.label.localeCompare(b.label, 'fr'));

/** Symbols sorted by display label, sorted once. */
export const SYMBOLS_BY_LABEL: readonly SymbolDefinition[] = [...SYMBOLS].sort((a, b) => a.label.localeCompare(b.label, 'fr'));
