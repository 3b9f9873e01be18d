/**
 * Buying credits (/pricing, /success, the profile's purchase history) in Chromium against the
 * real bt server, whose Stripe, PayPal and NOWPayments settings point at the local provider
 * servers of the server's tests: each serves its hosted checkout page, whose "Payer" button
 * completes the payment (webhook, approval or IPN) and returns to /pricing.
 * Run after `npm run build -w @bt/web`.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startNowPaymentsServer, type NowPaymentsServer } from '../../server/test/support/nowpayments-server.js';
import { pdfText } from '../../server/test/support/pdf-text.js';
import { startPayPalServer, type PayPalServer } from '../../server/test/support/paypal-server.js';
import { startStripeServer, type StripeServer } from '../../server/test/support/stripe-server.js';
import { badgeCredits, newUser, shot, signedInPage, useServerAndBrowser } from './work-area-support.js';

const keys = {
  stripe: { secretKey: 'sk_test_e2e_0123456789', webhookSecret: 'whsec_e2e_0123456789' },
  paypal: { clientId: 'paypal-e2e', clientSecret: 'paypal-e2e-secret' },
  nowpayments: { apiKey: 'NP-E2E-KEY', ipnSecret: 'np-e2e-ipn' },
};
const providers = {} as { stripe: StripeServer; paypal: PayPalServer; nowpayments: NowPaymentsServer };

const running = useServerAndBrowser(
  async ({ server }) => providers.stripe.setWebhook(`${server.url}/api/payment/stripe/webhook`),
  async () => {
    providers.stripe = await startStripeServer(keys.stripe);
    providers.paypal = await startPayPalServer(keys.paypal);
    providers.nowpayments = await startNowPaymentsServer(keys.nowpayments);
    return {
      env: {
        STRIPE_SECRET_KEY: keys.stripe.secretKey,
        STRIPE_WEBHOOK_SECRET: keys.stripe.webhookSecret,
        STRIPE_API_BASE: providers.stripe.base,
        PAYPAL_CLIENT_ID: keys.paypal.clientId,
        PAYPAL_CLIENT_SECRET: keys.paypal.clientSecret,
        PAYPAL_API_BASE: providers.paypal.base,
        NOWPAYMENTS_API_KEY: keys.nowpayments.apiKey,
        NOWPAYMENTS_IPN_SECRET: keys.nowpayments.ipnSecret,
        NOWPAYMENTS_API_BASE: providers.nowpayments.base,
        SELLER_NAME: 'bt SAS',
        SELLER_ADDRESS: '12 rue des Bougies|75002 Paris',
        VAT_RATE: '20',
      },
    };
  },
);
after(async () => {
  await Promise.all([providers.stripe?.close(), providers.paypal?.close(), providers.nowpayments?.close()]);
});

/** No horizontal scrolling at this width (the widest elements are named when there is). */
async function fitsWidth(page: Page, width: number): Promise<void> {
  const scroll = (await page.evaluate('document.documentElement.scrollWidth')) as number;
  const wide = scroll <= width ? [] : await page.evaluate(`[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > ${width}).slice(-5).map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))`);
  assert.ok(scroll <= width, `${new URL(page.url()).pathname} is ${scroll} px wide at ${width} px: ${JSON.stringify(wide)}`);
}

const text = (page: Page, testId: string) => page.getByTestId(testId).innerText();

/**
 * On /pricing with a method chosen: buy, pay on the provider's page, come back, see the dialog,
 * the badge, /success, then the profile's history and the invoice.
 */
async function buyThrough(page: Page, method: 'stripe' | 'paypal' | 'crypto', offer: { id: string; label: string; price: string; credits: number }, badgeAfter: string, providerHost: string, prefix: string) {
  await page.getByTestId(`method-${method}`).click();
  await page.getByTestId(`offer-${offer.id}`).getByTestId('offer-price').getByText(offer.price).waitFor();
  await page.getByTestId(`buy-${offer.id}`).click();
  await page.waitForURL((url) => url.origin === providerHost);
  await page.locator('#provider-pay').waitFor();
  await shot(page, `${prefix}-1-provider`);
  await page.locator('#provider-pay').click();
  await page.waitForURL(/\/pricing/);
  const dialog = page.getByRole('dialog', { name: 'Paiement confirmé' });
  await dialog.waitFor({ timeout: 20_000 });
  assert.equal(new URL(page.url()).search, '', 'the return parameters are read, then removed');
  assert.match(await dialog.innerText(), new RegExp(`${offer.label}[^]*${offer.credits} crédits ajoutés à ton solde`));
  await page.getByTestId('toast').getByText(`Paiement confirmé : ${offer.credits} crédits ajoutés.`).waitFor();
  await page.getByTestId('credits-badge').getByText(badgeAfter, { exact: true }).waitFor();
  await shot(page, `${prefix}-2-dialog`, false);
  if ((page.viewportSize()?.width ?? 1280) <= 375) await fitsWidth(page, 375);
  await dialog.getByTestId('payment-summary-link').click();
  await page.waitForURL(/\/success\?/);
  await page.getByTestId('success-card').waitFor();
  assert.equal(await text(page, 'success-offer'), offer.label);
  assert.equal((await text(page, 'success-price')).replace(/\s/g, ' '), offer.price);
  assert.equal(await text(page, 'success-credits'), `+${offer.credits}`);
  await shot(page, `${prefix}-3-success`);
  const width = page.viewportSize()?.width ?? 1280;
  if (width <= 375) await fitsWidth(page, width);
  await page.getByTestId('success-profile').click();
  await page.waitForURL(/\/profile$/);
  const row = page.getByTestId('history-row').first();
  await row.getByTestId('history-invoice').waitFor();
  assert.match(await row.innerText(), new RegExp(`${offer.label}`));
  const download = page.waitForEvent('download');
  await row.getByTestId('history-invoice').click();
  const file = await (await download).path();
  const invoice = pdfText(await readFile(file));
  for (const expected of ['bt SAS', offer.label, `Total TTC : ${offer.price.replace(/\s/g, ' ')}`, 'TVA (20 %)']) assert.ok(invoice.includes(expected), `${expected} in the invoice:\n${invoice}`);
  // A refused invoice (here the server's 404) is a French toast, and nothing is saved as a .pdf.
  await page.route('**/api/profile/invoices/**', (route) => route.fulfill({ status: 404, json: { detail: 'Facture introuvable.' } }));
  let saved = false;
  const onDownload = () => (saved = true);
  page.on('download', onDownload);
  await row.getByTestId('history-invoice').click();
  await page.getByTestId('toast').getByText('Téléchargement impossible. Facture introuvable.').waitFor();
  await page.waitForTimeout(300);
  assert.equal(saved, false);
  page.off('download', onDownload);
  await page.unroute('**/api/profile/invoices/**');
  return invoice;
}

describe('buying credits against the bt server and local payment providers', () => {
  it('a visitor sees the offers and gets the connection prompt; the page fits 375 px', async () => {
    const page = await signedInPage(running.browser, running.server, null, '/pricing', { width: 375, height: 800 });
    await page.getByTestId('offer-CREDIT_10').waitFor();
    assert.equal(await page.getByTestId('method-stripe').isDisabled(), false);
    await fitsWidth(page, 375);
    await shot(page, 'payments-01-visitor');
    await page.getByTestId('buy-CREDIT_10').click();
    const prompt = page.getByRole('dialog', { name: 'Connexion requise' });
    await prompt.getByText('Inscrivez-vous pour acheter des crédits').waitFor();
    assert.equal(await prompt.getByRole('link', { name: 'Créer un compte' }).getAttribute('href'), '/login?tab=register&next=%2Fpricing');
    await shot(page, 'payments-01-prompt', false);
    await prompt.getByRole('button', { name: 'Continuer en visiteur' }).click();
    assert.equal(await page.getByTestId('buy-CREDIT_5').isDisabled(), false);
    await page.getByTestId('method-crypto').click();
    assert.equal(await page.getByTestId('buy-CREDIT_5').isDisabled(), true);
    assert.match(await page.getByTestId('offer-CREDIT_5').getByTestId('offer-unavailable').innerText(), /^Crypto indisponible sous 10,01\s€$/);
    assert.match(await page.getByTestId('offer-CREDIT_10').innerText(), /10,50\s€[^]*13 crédits[^]*dont 1 offert en crypto/);
    await page.context().close();
  });

  it('buys a pack by card through Stripe Checkout: dialog, badge, /success, history and invoice', async () => {
    const user = await newUser(running.server, { verified: true });
    const page = await signedInPage(running.browser, running.server, user.key, '/pricing');
    await page.getByTestId('credits-badge').getByText('2', { exact: true }).waitFor();
    const invoice = await buyThrough(page, 'stripe', { id: 'CREDIT_10', label: 'Pack 12 crédits', price: '10,00 €', credits: 12 }, '14', providers.stripe.base, 'payments-02-stripe');
    assert.ok(invoice.includes('Carte bancaire (Stripe)'));
    assert.equal(await page.evaluate("localStorage.getItem('lastOfferId')"), null, 'forgotten once paid');
    await page.context().close();

    // 3 € refunded from Stripe's dashboard: the profile lists the credit note, its PDF downloads.
    await providers.stripe.refund([...providers.stripe.charges.keys()].at(-1)!, { amount: 300 });
    await providers.stripe.settle();
    const profile = await signedInPage(running.browser, running.server, user.key, '/profile');
    const note = profile.getByTestId('credit-note-row');
    await note.waitFor();
    assert.match((await note.innerText()).replace(/\s/g, ' '), /^Avoir AV-\d{6} — sur la facture BT-\d{6} — 3,00 € — \d{2}\/\d{2}\/\d{4}$/);
    const download = profile.waitForEvent('download');
    await note.getByTestId('credit-note-link').click();
    const pdf = pdfText(await readFile(await (await download).path()));
    for (const expected of ['Facture d’avoir', 'Avoir sur la facture n° BT-', 'bt SAS']) assert.ok(pdf.includes(expected), `${expected} in the credit note:\n${pdf}`);
    await profile.context().close();
  });

  it('buys a pack through PayPal (approval, capture on return) and in crypto (NOWPayments IPN)', async () => {
    const user = await newUser(running.server, { verified: true });
    const page = await signedInPage(running.browser, running.server, user.key, '/pricing', { width: 375, height: 800 });
    const paypal = await buyThrough(page, 'paypal', { id: 'CREDIT_20', label: 'Pack 25 crédits', price: '20,00 €', credits: 25 }, '27', providers.paypal.base, 'payments-03-paypal');
    assert.ok(paypal.includes('Moyen de paiement : PayPal'));
    const order = [...providers.paypal.orders.values()].at(-1)!;
    assert.equal(await page.evaluate("localStorage.getItem('paypalProcessed')"), order.id);

    await page.goto(`${running.server.url}/pricing`);
    const crypto = await buyThrough(page, 'crypto', { id: 'CREDIT_10', label: 'Pack 12 crédits', price: '10,50 €', credits: 13 }, '40', providers.nowpayments.base, 'payments-04-crypto');
    assert.ok(crypto.includes('Crypto-monnaie (NOWPayments)'));
    assert.equal(await page.getByTestId('history-invoice').count(), 2);
    await page.context().close();
  });

  it('a payment cancelled on the provider’s page says so and credits nothing', async () => {
    const user = await newUser(running.server, { verified: true });
    const page = await signedInPage(running.browser, running.server, user.key, '/pricing');
    await page.getByTestId('credits-badge').getByText('2', { exact: true }).waitFor();
    await page.getByTestId('method-paypal').click();
    await page.getByTestId('buy-CREDIT_5').click();
    await page.locator('#provider-cancel').click();
    await page.getByTestId('toast').getByText('Paiement annulé.').waitFor();
    assert.equal(new URL(page.url()).search, '');
    assert.equal(await badgeCredits(page), '2');
    await page.context().close();
  });
});
