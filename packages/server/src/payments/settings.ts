/**
 * What the payment providers and invoices need from the environment (docs/payments.md). A
 * provider without its settings is unavailable: its routes answer 503 and /pricing shows it so.
 */

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Another API host than api.stripe.com (a local server in tests): `http://127.0.0.1:12111`. */
  apiBase: string | null;
}

export interface PayPalSettings {
  clientId: string;
  clientSecret: string;
  /** `https://api-m.paypal.com` (live) or `https://api-m.sandbox.paypal.com`. */
  apiBase: string;
  /**
   * The id PayPal gave the webhook registered for `$API_PUBLIC_URL/api/payment/paypal/webhook`
   * (`PAYPAL_WEBHOOK_ID`): PayPal verifies a notice's signature only for it. Null: refunds and
   * disputes cannot be verified, the webhook answers 503 (docs/payments.md).
   */
  webhookId: string | null;
}

export interface NowPaymentsSettings {
  apiKey: string;
  ipnSecret: string;
  /** `https://api.nowpayments.io` (live) or `https://api-sandbox.nowpayments.io`. */
  apiBase: string;
}

/** The seller printed on invoices, and how VAT is shown (prices are all taxes included). */
export interface SellerSettings {
  name: string;
  /** Address lines. */
  address: string[];
  email: string | null;
  vatId: string | null;
  /** Company registration number (SIRET in France). */
  registration: string | null;
  /** VAT rate in percent included in the prices (0: none). */
  vatRatePercent: number;
  /** The sentence printed under the totals (with 0 %: why no VAT is charged). */
  vatNote: string | null;
  /** Invoice numbers read `{prefix}{number padded to 6}`. */
  invoicePrefix: string;
}

export const DEFAULT_SELLER: SellerSettings = {
  name: 'bt',
  address: [],
  email: null,
  vatId: null,
  registration: null,
  vatRatePercent: 0,
  vatNote: 'TVA non applicable, art. 293 B du CGI',
  invoicePrefix: 'BT-',
};

export const DEFAULT_PAYPAL_API = 'https://api-m.paypal.com';
export const DEFAULT_NOWPAYMENTS_API = 'https://api.nowpayments.io';
/** The coin a crypto invoice asks for when the client names none. */
export const DEFAULT_CRYPTO_CURRENCY = 'usdttrc20';
