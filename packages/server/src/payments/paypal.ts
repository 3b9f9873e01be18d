import { ProviderError, centsOf, decimalAmount, type CapturedOrder, type OrderRequest, type PayPalGateway } from './gateways.js';
import { callProvider, providerMessage } from './http.js';
import type { PayPalSettings } from './settings.js';

type Json = Record<string, any>;

/**
 * PayPal Orders v2 over its REST API: an OAuth2 client-credentials token (kept until a minute
 * before it expires), order creation with a return URL (the approve/payer-action link is a plain
 * redirect), capture keyed by `PayPal-Request-Id` so a repeated capture gets the same answer.
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

  private async call(method: string, path: string, body: unknown, headers: Record<string, string> = {}) {
    const token = await this.accessToken();
    const answer = await callProvider('paypal', `${this.settings.apiBase}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
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
