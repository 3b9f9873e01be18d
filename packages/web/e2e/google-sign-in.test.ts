/**
 * The login page's Google button against a bt server that has Google sign-in configured (the
 * local OpenID provider of the server's tests stands in for Google): the button is offered, a
 * click goes through the provider and back, and the trader lands on `next`, signed in. The
 * server without Google is the account flow's (e2e/flows/account.ts): the button is disabled
 * there, with why, instead of leading to the server's raw 503 answer (docs/web.md "Public
 * pages"). Run after `npm run build -w @bt/web`:
 * `npx tsx --conditions=@bt/source --test e2e/google-sign-in.test.ts`.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { startOidcProvider, type TestProvider } from '../../server/test/support/oidc-provider.js';
import type { Browser } from 'playwright-core';
import { newUser, shot, useServerAndBrowser, type TestUser } from './work-area-support.js';

let provider: TestProvider | undefined;

const running = useServerAndBrowser(undefined, async () => {
  provider = await startOidcProvider();
  return { env: { GOOGLE_CLIENT_ID: provider.clientId, GOOGLE_CLIENT_SECRET: provider.clientSecret, OIDC_ISSUER: provider.issuer } };
});

after(async () => {
  await provider?.close();
});

describe('Google sign-in from the login page', () => {
  it('offers the button when the server has Google, and a click signs the trader in and lands on next', async () => {
    provider!.signIn({ sub: 'g-e2e-1', email: 'gina.e2e@bt.test', email_verified: true, given_name: 'Gina', family_name: 'Rossi' });
    const context = await running.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'fr-FR', reducedMotion: 'reduce' });
    const page = await context.newPage();
    // The page asks the server which sign-ins it has before deciding.
    const health = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/health');
    await page.goto(`${running.server.url}/login?next=%2Fdashboard`);
    assert.deepEqual((await (await health).json()).sign_in, ['google']);
    const button = page.getByTestId('google-signin');
    assert.equal(await button.isDisabled(), false);
    assert.equal(await page.getByTestId('google-unavailable').count(), 0);
    await button.click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.getByRole('tab', { name: 'Mon dashboard' }).waitFor();
    assert.equal(await page.getByTestId('avatar').innerText(), 'GR');
    await shot(page, 'google-01-signed-in', false);
    await context.close();
  });

  it('a return without a session says why: refused at the provider, or an address the provider did not verify', async () => {
    const loginPage = async (browser: Browser) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'fr-FR', reducedMotion: 'reduce' });
      const page = await context.newPage();
      await page.goto(`${running.server.url}/login?next=%2Fdashboard`);
      return { page, context };
    };
    provider!.signIn({ deny: true });
    let { page, context } = await loginPage(running.browser);
    await page.getByTestId('google-signin').click();
    await page.waitForURL((url) => url.searchParams.get('error') === 'access_denied');
    assert.equal(await page.getByTestId('provider-error').innerText(), 'Connexion avec Google annulée.');
    await context.close();

    // An account with a password owns the address; the provider does not vouch for it.
    const owner: TestUser = await newUser(running.server, { verified: true });
    provider!.signIn({ sub: 'g-e2e-2', email: owner.email, email_verified: false });
    ({ page, context } = await loginPage(running.browser));
    await page.getByTestId('google-signin').click();
    await page.waitForURL((url) => url.searchParams.get('error') === 'email_unverified');
    assert.equal(await page.getByTestId('provider-error').innerText(), 'Un compte existe déjà avec cette adresse, mais Google ne l’a pas vérifiée : connecte-toi avec ton mot de passe.');
    await shot(page, 'google-02-email-unverified', false);
    await context.close();
  });
});
