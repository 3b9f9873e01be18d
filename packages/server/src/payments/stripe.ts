import Stripe from 'stripe';
import { ProviderError, SignatureError, type CheckoutRequest, type StripeEvent, type StripeGateway } from './gateways.js';
import type { StripeSettings } from './settings.js';

/** `http://127.0.0.1:12111` → the SDK's host, port and protocol options. */
function apiTarget(apiBase: string | null): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiBase) return {};
  const target = new URL(apiBase);
  const protocol = target.protocol === 'http:' ? 'http' : 'https';
  return { host: target.hostname, port: target.port || (protocol === 'http' ? 80 : 443), protocol };
}

/**
 * Stripe through its official SDK: Checkout sessions (hosted page, no script on our pages),
 * webhook signatures (`constructEventAsync`: HMAC-SHA256 of `t.payload`, 5 minutes of tolerance),
 * subscription cancellation.
 */
export class StripeCheckout implements StripeGateway {
  private readonly stripe: Stripe;

  constructor(private readonly settings: StripeSettings) {
    this.stripe = new Stripe(settings.secretKey, { ...apiTarget(settings.apiBase), maxNetworkRetries: 2, timeout: 20_000, telemetry: false });
  }

  async createCheckoutSession(request: CheckoutRequest): Promise<{ id: string; url: string }> {
    const metadata = { bt_payment: request.reference, user_id: String(request.userId), offer_id: request.offerId };
    const subscription = request.mode === 'subscription';
    const params: Stripe.Checkout.SessionCreateParams = {
      mode: request.mode,
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: 'eur',
            unit_amount: request.amountCents,
            product_data: { name: request.label },
            ...(subscription ? { recurring: { interval: 'day' as const, interval_count: request.periodDays } } : {}),
          },
        },
      ],
      client_reference_id: String(request.userId),
      ...(request.customerEmail ? { customer_email: request.customerEmail } : {}),
      metadata,
      // Renewal invoices carry the subscription's metadata: that is how they find the user.
      ...(subscription ? { subscription_data: { metadata } } : { payment_intent_data: { metadata } }),
      locale: 'fr',
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
    };
    try {
      const session = await this.stripe.checkout.sessions.create(params, { idempotencyKey: `checkout-${request.reference}` });
      if (!session.url) throw new ProviderError('stripe', `checkout session ${session.id} has no url`);
      return { id: session.id, url: session.url };
    } catch (err) {
      throw asProviderError(err);
    }
  }

  async parseWebhook(rawBody: Uint8Array, signature: string): Promise<StripeEvent> {
    let event: Stripe.Event;
    try {
      // The async form: under Deno the SDK's build verifies with Web Crypto, which has no sync API.
      event = await this.stripe.webhooks.constructEventAsync(Buffer.from(rawBody), signature, this.settings.webhookSecret);
    } catch (err) {
      throw new SignatureError(`Stripe-Signature refused: ${(err as Error).message}`);
    }
    const object = (event as { data?: { object?: unknown } }).data?.object;
    if (typeof event.id !== 'string' || typeof event.type !== 'string' || !object || typeof object !== 'object') throw new SignatureError('not a Stripe event');
    return event as unknown as StripeEvent;
  }

  async cancelAtPeriodEnd(subscriptionId: string): Promise<void> {
    try {
      await this.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
    } catch (err) {
      throw asProviderError(err);
    }
  }

  async renews(subscriptionId: string): Promise<boolean> {
    try {
      const sub = await this.stripe.subscriptions.retrieve(subscriptionId);
      return !sub.cancel_at_period_end && !sub.cancel_at && !['canceled', 'incomplete_expired'].includes(sub.status);
    } catch (err) {
      if ((err as { code?: string }).code === 'resource_missing') return false;
      throw asProviderError(err);
    }
  }

  async invoiceOfPaymentIntent(paymentIntentId: string): Promise<string | null> {
    try {
      const list = await this.stripe.invoicePayments.list({ payment: { type: 'payment_intent', payment_intent: paymentIntentId }, limit: 1 });
      const invoice = list.data[0]?.invoice;
      return typeof invoice === 'string' ? invoice : (invoice?.id ?? null);
    } catch (err) {
      throw asProviderError(err);
    }
  }

  async invoice(invoiceId: string): Promise<Record<string, unknown>> {
    try {
      return (await this.stripe.invoices.retrieve(invoiceId)) as unknown as Record<string, unknown>;
    } catch (err) {
      throw asProviderError(err);
    }
  }

  async checkoutReferenceOf(paymentIntentId: string): Promise<string | null> {
    try {
      const list = await this.stripe.checkout.sessions.list({ payment_intent: paymentIntentId, limit: 1 });
      const reference = list.data[0]?.metadata?.bt_payment;
      return typeof reference === 'string' && reference ? reference : null;
    } catch (err) {
      throw asProviderError(err);
    }
  }

  async cancelNow(subscriptionId: string): Promise<void> {
    try {
      await this.stripe.subscriptions.cancel(subscriptionId);
    } catch (err) {
      // Already gone: nothing more to stop.
      if ((err as { code?: string }).code === 'resource_missing') return;
      throw asProviderError(err);
    }
  }
}

function asProviderError(err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  const e = err as { message?: string; statusCode?: number; code?: string };
  return new ProviderError('stripe', e.message ?? String(err), e.statusCode, e.code);
}
