import { ProviderError, SignatureError, centsOf, decimalAmount, type CapturedOrder, type OrderRequest, type PayPalCapture, type PayPalEvent, type PayPalGateway, type PayPalTransmission } from './gateways.js';
import { callProvider, providerMessage } from './http.js';
import type { PayPalSettings } from './settings.js';

type Json = Record<string, any>;

/** Capture, refund and dispute ids are short letters and digits; anything else is no PayPal id. */
const PAYPAL_ID = /^[A-Za-z0-9-]{1,64}$/;

/**
 * PayPal Orders v2 over its REST API: an OAuth2 client-credentials token (kept until a minute
 * before it expires), order creation with a return URL (the approve/payer-action link is a plain
 * redirect), capture keyed by `PayPal-Request-Id` so a repeated capture gets the same answer.
 * Webhook notices (refunds, reversals, disputes) are verified by PayPal itself
 * (`/v1/notifications/verify-webhook-signature`) for the configured webhook id.
 */
export class PayPalOrders implements PayPalGateway {
  private token: { value: string; expiresAt: number } | null = null;

  constructor(private readonly settings: PayPalSettings, private readonly now: () => number = Date.now) {}

  private async accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > this.now()) return this.token.value;
    const basic = Buffer.from(`${this.settings.clientId}:${this.settings.clientSecret}`).toString('base64');
    const { status, body } = await callProvider('paypal', `${this.settings.apiBase}/v1/oauth2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: 'grant_type=client_credentials',
    });
    if (status !== 200 || typeof body.access_token !== 'string') throw new ProviderError('paypal', `token refused (HTTP ${status}): ${providerMessage(body)}`, status);
    const lifetime = typeof body.expires_in === 'number' ? body.expires_in : 300;
    this.token = { value: body.access_token, expiresAt: this.now() + Math.max(0, lifetime - 60) * 1000 };
    return this.token.value;
  }

  /** `body` as a string is sent as it is (JSON already: the webhook event spliced in unchanged). */
  private async call(method: string, path: string, body: unknown, headers: Record<string, string> = {}) {
    const token = await this.accessToken();
    const answer = await callProvider('paypal', `${this.settings.apiBase}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    // A token revoked before its time: forget it, the next call asks again.
    if (answer.status === 401) this.token = null;
    return answer;
  }

  async createOrder(request: OrderRequest): Promise<{ id: string; approveUrl: string }> {
    const { status, body } = await this.call(
      'POST',
      '/v2/checkout/orders',
      {
        intent: 'CAPTURE',
        purchase_units: [
          {
            reference_id: request.offerId,
            custom_id: request.reference,
            description: request.description,
            amount: { currency_code: 'EUR', value: decimalAmount(request.amountCents) },
          },
        ],
        payment_source: {
          paypal: {
            experience_context: {
              brand_name: 'bt',
              locale: 'fr-FR',
              shipping_preference: 'NO_SHIPPING',
              user_action: 'PAY_NOW',
              return_url: request.returnUrl,
              cancel_url: request.cancelUrl,
            },
          },
        },
      },
      { 'PayPal-Request-Id': `create-${request.reference}`, Prefer: 'return=minimal' },
    );
    if (status !== 200 && status !== 201) throw new ProviderError('paypal', `order refused (HTTP ${status}): ${providerMessage(body)}`, status);
    const links = Array.isArray(body.links) ? (body.links as Json[]) : [];
    const approve = links.find((link) => link?.rel === 'payer-action' || link?.rel === 'approve');
    if (typeof body.id !== 'string' || typeof approve?.href !== 'string') throw new ProviderError('paypal', 'order without id or approval link', status);
    return { id: body.id, approveUrl: approve.href };
  }

  async captureOrder(orderId: string, requestId: string): Promise<CapturedOrder> {
    const path = `/v2/checkout/orders/${encodeURIComponent(orderId)}`;
    const captured = await this.call('POST', `${path}/capture`, {}, { 'PayPal-Request-Id': `capture-${requestId}`, Prefer: 'return=representation' });
    if (captured.status === 200 || captured.status === 201) return readOrder(orderId, captured.body);
    const issue = firstIssue(captured.body);
    if (captured.status === 422 && issue === 'ORDER_ALREADY_CAPTURED') {
      // Captured by an earlier call with another request id: read the order as it stands.
      const order = await this.call('GET', path, undefined);
      if (order.status === 200) return readOrder(orderId, order.body);
    }
    throw new ProviderError('paypal', `capture refused (HTTP ${captured.status}): ${issue ?? providerMessage(captured.body)}`, captured.status, issue ?? undefined);
  }

  get webhookConfigured(): boolean {
    return !!this.settings.webhookId;
  }

  async parseWebhook(rawBody: Uint8Array, transmission: PayPalTransmission): Promise<PayPalEvent> {
    const webhookId = this.settings.webhookId;
    if (!webhookId) throw new ProviderError('paypal', 'PAYPAL_WEBHOOK_ID is not set: no notice can be verified');
    const missing = (Object.entries(transmission) as [string, string][]).filter(([, value]) => !value || value.length > 4096).map(([name]) => name);
    if (missing.length) throw new SignatureError(`PayPal notice without its transmission headers (${missing.join(', ')})`);
    let text: string;
    let event: unknown;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(rawBody);
      event = JSON.parse(text);
    } catch {
      throw new SignatureError('PayPal notice that is not JSON');
    }
    const e = event as Json;
    if (!e || typeof e !== 'object' || Array.isArray(e) || typeof e.event_type !== 'string' || typeof e.id !== 'string' || !e.resource || typeof e.resource !== 'object') {
      throw new SignatureError('PayPal notice that is not a webhook event');
    }
    // The event goes back byte for byte: PayPal checks the signature against the CRC32 of the body
    // it sent, and a re-serialised copy (other spacing, number forms) would not verify.
    const fields = {
      auth_algo: transmission.authAlgo,
      cert_url: transmission.certUrl,
      transmission_id: transmission.transmissionId,
      transmission_sig: transmission.transmissionSig,
      transmission_time: transmission.transmissionTime,
      webhook_id: webhookId,
    };
    const request = `${JSON.stringify(fields).slice(0, -1)},"webhook_event":${text}}`;
    let answer = await this.call('POST', '/v1/notifications/verify-webhook-signature', request);
    // A token revoked before its time: once more with a new one.
    if (answer.status === 401) answer = await this.call('POST', '/v1/notifications/verify-webhook-signature', request);
    if (answer.status === 200 && answer.body.verification_status === 'SUCCESS') return e as PayPalEvent;
    if (answer.status === 200) throw new SignatureError(`PayPal did not verify the notice ${String(e.id).slice(0, 64)} (${String(answer.body.verification_status).slice(0, 32)}) for webhook ${webhookId}`);
    if (answer.status >= 400 && answer.status < 500 && answer.status !== 401 && answer.status !== 429) {
      throw new SignatureError(`PayPal refused to verify the notice (HTTP ${answer.status}): ${firstIssue(answer.body) ?? providerMessage(answer.body)}`);
    }
    throw new ProviderError('paypal', `verification failed (HTTP ${answer.status}): ${providerMessage(answer.body)}`, answer.status);
  }

  async captureOf(captureId: string): Promise<PayPalCapture | null> {
    if (!PAYPAL_ID.test(captureId)) return null;
    const { status, body } = await this.call('GET', `/v2/payments/captures/${captureId}`, undefined);
    if (status === 404) return null;
    if (status !== 200) throw new ProviderError('paypal', `capture ${captureId} unreadable (HTTP ${status}): ${providerMessage(body)}`, status);
    const amount = (body.amount ?? {}) as Json;
    return {
      id: typeof body.id === 'string' ? body.id : captureId,
      status: String(body.status ?? ''),
      customId: typeof body.custom_id === 'string' ? body.custom_id : null,
      orderId: linkedId(body, 'up', 'orders'),
      amountCents: centsOf(amount.value),
      currency: typeof amount.currency_code === 'string' ? amount.currency_code : null,
    };
  }
}

/** The id at the end of a HATEOAS link (`rel`), when it points at `/v2/…/{kind}/{id}`. */
export function linkedId(object: Json, rel: string, kind: 'captures' | 'orders'): string | null {
  const links = Array.isArray(object.links) ? (object.links as Json[]) : [];
  for (const link of links) {
    if (link?.rel !== rel || typeof link.href !== 'string') continue;
    const match = new RegExp(`/v2/(?:payments|checkout)/${kind}/([^/?#]+)`).exec(link.href);
    if (match && PAYPAL_ID.test(match[1])) return match[1];
  }
  return null;
}

function firstIssue(body: Json): string | null {
  const details = Array.isArray(body.details) ? body.details : [];
  return typeof details[0]?.issue === 'string' ? details[0].issue : typeof body.name === 'string' ? body.name : null;
}

function readOrder(orderId: string, order: Json): CapturedOrder {
  const unit = Array.isArray(order.purchase_units) ? order.purchase_units[0] : undefined;
  const capture = Array.isArray(unit?.payments?.captures) ? unit.payments.captures[0] : undefined;
  return {
    orderId: typeof order.id === 'string' ? order.id : orderId,
    status: String(order.status ?? ''),
    captureId: typeof capture?.id === 'string' ? capture.id : null,
    captureStatus: typeof capture?.status === 'string' ? capture.status : null,
    amountCents: centsOf(capture?.amount?.value),
    currency: typeof capture?.amount?.currency_code === 'string' ? capture.amount.currency_code : null,
    customId: typeof capture?.custom_id === 'string' ? capture.custom_id : typeof unit?.custom_id === 'string' ? unit.custom_id : null,
  };
}
