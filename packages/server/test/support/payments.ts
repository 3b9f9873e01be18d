/**
 * The payment tests' set-up: the three local provider servers, and the file's app with the real
 * gateways (Stripe SDK, PayPal and NOWPayments clients) pointed at them.
 */
import { PayPalOrders } from '../../src/payments/paypal.js';
import { NowPaymentsInvoices } from '../../src/payments/nowpayments.js';
import { StripeCheckout } from '../../src/payments/stripe.js';
import type { SellerSettings } from '../../src/payments/settings.js';
import { useTestApp, type TestApp } from './app.js';
import { startNowPaymentsServer, type NowPaymentsServer } from './nowpayments-server.js';
import { startPayPalServer, type PayPalServer } from './paypal-server.js';
import { startStripeServer, type StripeServer } from './stripe-server.js';

export const STRIPE_KEYS = { secretKey: 'sk_test_local_0123456789', webhookSecret: 'whsec_local_0123456789abcdef' };
export const PAYPAL_KEYS = { clientId: 'paypal-client-local', clientSecret: 'paypal-secret-local' };
export const NOWPAYMENTS_KEYS = { apiKey: 'NP-LOCAL-API-KEY', ipnSecret: 'np-ipn-secret-local' };

export const TEST_SELLER: SellerSettings = {
  name: 'bt SAS',
  address: ['12 rue des Bougies', '75002 Paris'],
  email: 'factures@bt.test',
  vatId: 'FR00123456789',
  registration: '123 456 789 00012',
  vatRatePercent: 20,
  vatNote: null,
  invoicePrefix: 'BT-',
};

export interface PaymentTestApp {
  t: TestApp;
  stripe: StripeServer;
  paypal: PayPalServer;
  nowpayments: NowPaymentsServer;
}

/** Local Stripe, PayPal and NOWPayments, then the file's app wired to them (before its tests). */
export function usePaymentApp(options: { seller?: SellerSettings } = {}): PaymentTestApp {
  const providers = {} as Omit<PaymentTestApp, 't'>;
  const t = useTestApp(
    async () => {
      providers.stripe = await startStripeServer({ ...STRIPE_KEYS, now: () => Math.floor(t.clock.now().getTime() / 1000) });
      providers.paypal = await startPayPalServer(PAYPAL_KEYS);
      providers.nowpayments = await startNowPaymentsServer(NOWPAYMENTS_KEYS);
      return {
        config: { seller: options.seller ?? TEST_SELLER },
        payments: {
          stripe: new StripeCheckout({ ...STRIPE_KEYS, apiBase: providers.stripe.base }),
          paypal: new PayPalOrders({ ...PAYPAL_KEYS, apiBase: providers.paypal.base }),
          crypto: new NowPaymentsInvoices({ ...NOWPAYMENTS_KEYS, apiBase: providers.nowpayments.base }),
        },
      };
    },
    {
      started: (app) => providers.stripe.setWebhook(`${app.url}/api/payment/stripe/webhook`),
      stopped: async () => {
        await Promise.all([providers.stripe?.close(), providers.paypal?.close(), providers.nowpayments?.close()]);
      },
    },
  );
  return Object.assign(providers, { t }) as PaymentTestApp;
}
