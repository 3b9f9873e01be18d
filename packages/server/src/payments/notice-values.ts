/** Reading the loosely typed objects of providers' notices (Stripe events, PayPal resources). */
export type Json = Record<string, any>;

/** A non-empty string, or the `id` of an expanded object in its place (Stripe sends either); null otherwise. */
export const str = (value: unknown): string | null => (typeof value === 'string' && value ? value : typeof value === 'object' && value && typeof (value as Json).id === 'string' ? (value as Json).id : null);
