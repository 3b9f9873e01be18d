/**
 * Coming back from a payment provider to /pricing (docs/payments.md "Flows"): PayPal's order is captured
 * (once per order: `paypalProcessed`), Stripe and crypto payments are confirmed by their
 * webhook, so their status is asked a few times; a cancel link is recorded. Plain logic with its
 * calls injected.
 */
import type { PaymentAnswer } from '../../api/calls.js';
import { HttpError, retryAfterMs } from '../../api/errors.js';
import type { KeyValueStorage } from '../../session/keyStorage.js';
import { LAST_OFFER_STORAGE, PAYMENT_MESSAGES, PAYPAL_PROCESSED_STORAGE, captureErrorMessage, paymentErrorMessage, purchaseOf, returnReference, type PaymentReturn, type Purchase } from './payments.js';

export interface ReturnDeps {
  capture(orderId: string, offerId: string | null): Promise<PaymentAnswer>;
  status(payment: string, reference: string): Promise<PaymentAnswer>;
  cancel(payment: string, reference: string): Promise<unknown>;
  storage: KeyValueStorage;
  wait(ms: number): Promise<void>;
  /** Polling stops when this turns false (the page went away). */
  live(): boolean;
}

export type ReturnOutcome =
  | { kind: 'paid'; purchase: Purchase; message: string; invoicePath: string | null }
  | { kind: 'pending'; message: string }
  | { kind: 'cancelled'; message: string }
  | { kind: 'error'; message: string };

/**
 * How often and how long a webhook-confirmed payment is asked for: every 1.5 s for 30 s (20 asks,
 * 28.5 s of waiting). A 429 waits its Retry-After (at least the usual step) inside the same limit.
 */
export const POLL_MS = 1500;
export const POLL_ATTEMPTS = 20;
export const POLL_BUDGET_MS = POLL_MS * (POLL_ATTEMPTS - 1);

function settled(answer: PaymentAnswer, method: PaymentReturn['payment'], reference: string): ReturnOutcome | null {
  if (answer.status === 'paid' || answer.status === 'success') {
    const purchase = purchaseOf(answer, method, reference);
    if (!purchase) return { kind: 'error', message: PAYMENT_MESSAGES.serverError };
    return { kind: 'paid', purchase, message: answer.message || PAYMENT_MESSAGES.confirmed, invoicePath: answer.invoice?.url ?? null };
  }
  if (answer.status === 'cancelled') return { kind: 'cancelled', message: PAYMENT_MESSAGES.cancelled };
  if (answer.status === 'failed' || answer.status === 'refused') return { kind: 'error', message: answer.message || PAYMENT_MESSAGES.serverError };
  return null;
}

export async function handlePaymentReturn(ret: PaymentReturn, deps: ReturnDeps): Promise<ReturnOutcome> {
  const reference = returnReference(ret);
  if (ret.status !== 'success') {
    if (reference && ret.payment !== 'stripe') await deps.cancel(ret.payment, reference).catch(() => undefined);
    return { kind: 'cancelled', message: PAYMENT_MESSAGES.cancelled };
  }
  if (!reference) return { kind: 'error', message: ret.payment === 'paypal' ? PAYMENT_MESSAGES.paypalTokenMissing : PAYMENT_MESSAGES.serverError };

  if (ret.payment === 'paypal' && deps.storage.getItem(PAYPAL_PROCESSED_STORAGE) !== reference) {
    deps.storage.setItem(PAYPAL_PROCESSED_STORAGE, reference);
    try {
      const answer = await deps.capture(reference, deps.storage.getItem(LAST_OFFER_STORAGE));
      deps.storage.removeItem(LAST_OFFER_STORAGE);
      // A capture PayPal holds (eCheck, review) is credited by its webhook once PayPal completes it,
      // which may take days: the buyer reads the server's sentence, not a failed capture.
      if (answer.status === 'pending') return { kind: 'pending', message: answer.message || PAYMENT_MESSAGES.pending };
      return settled(answer, 'paypal', reference) ?? { kind: 'error', message: PAYMENT_MESSAGES.captureFailed };
    } catch (error) {
      // Another try is allowed once this one is known to have failed.
      deps.storage.removeItem(PAYPAL_PROCESSED_STORAGE);
      return { kind: 'error', message: captureErrorMessage(error) };
    }
  }

  // A 429 (the server's 300 calls a minute per key) is a reason to wait, not a failure: the status
  // is asked again after its Retry-After, as long as the wait fits in what is left of the limit.
  let waited = 0;
  let delay = 0;
  while (deps.live()) {
    if (delay > 0) {
      if (waited + delay > POLL_BUDGET_MS) break;
      await deps.wait(delay);
      waited += delay;
      if (!deps.live()) break;
    }
    let answer: PaymentAnswer;
    try {
      answer = await deps.status(ret.payment, reference);
    } catch (error) {
      if (error instanceof HttpError && error.status === 429) {
        delay = Math.max(POLL_MS, retryAfterMs(error.retryAfter) ?? POLL_MS);
        continue;
      }
      return { kind: 'error', message: paymentErrorMessage(error) };
    }
    const outcome = settled(answer, ret.payment, reference);
    if (outcome) {
      if (outcome.kind === 'paid') deps.storage.removeItem(LAST_OFFER_STORAGE);
      return outcome;
    }
    delay = POLL_MS;
  }
  return { kind: 'pending', message: PAYMENT_MESSAGES.pending };
}
