/**
 * The login page's Google button against a bt server that has Google sign-in configured (the
 * local OpenID provider of the server's tests stands in for Google): the button is offered, a
 * click goes through the provider and back with a one-time code (never a key in any address on the
 * way), the page redeems it, and the trader lands on `next`, signed in. A code that cannot be
 * redeemed leaves the address at once and says why. The
 * server without Google is the account flow's (e2e/flows/account.ts): the button is disabled
 * there, with why, instead of leading to the server's raw 503 answer (docs/web.md "Public
 * pages"). Run after `npm run build -w @bt/web`:
 * `npx tsx --conditions=@bt/source --test e2e/google-sign-in.test.ts`.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { startOidcProvider, type TestProvider } from '../../server/test/support/oidc-provider.js';
import type { Browser, Page } from 'playwright-core';
import { newUser, shot, useServerAndBrowser, type TestUser } from './work-area-support.js';

let provider: TestProvider | undefined;

const running = useServerAndBrowser(undefined, async () => {
  provider = await startOidcProvider();
  return { env: { GOOGLE_CLIENT_ID: provider.clientId, GOOGLE_CLIENT_SECRET: provider.clientSecret, OIDC_ISSUER: provider.issuer } };
});

after(async () => {
  await provider?.close();
});

/** Every address the page's main frame goes to, from now on. */
function addresses(page: Page): string[] {
  const seen: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) seen.push(frame.url());
  });
  return seen;
}

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
    const seen = addresses(page);
    const redeem = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/auth/google/redeem');
    await button.click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.getByRole('tab', { name: 'Mon dashboard' }).waitFor();
    assert.equal(await page.getByTestId('avatar').innerText(), 'GR');
    // The return came with a code, redeemed by a POST (with the flow's cookie), and no address
    // on the way ever held a key.
    assert.ok(seen.some((url) => new URL(url).pathname === '/login' && new URL(url).searchParams.has('code')), seen.join('\n'));
    assert.equal((await redeem).status(), 200);
    assert.equal((await redeem).request().method(), 'POST');
    for (const url of seen) assert.doesNotMatch(url, /[?&](apiKey|api_key|token)=/i, url);
    assert.equal(new URL(page.url()).searchParams.has('code'), false);
    assert.ok(await page.evaluate(() => (globalThis as any).localStorage.getItem('apiKey')), 'the key is stored');
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

  it('a code that cannot be redeemed (used, expired, another browser\'s) leaves the address at once and says why', async () => {
    const context = await running.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'fr-FR', reducedMotion: 'reduce' });
    const page = await context.newPage();
    const redeem = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/auth/google/redeem');
    await page.goto(`${running.server.url}/login?provider=google&code=not-a-code-of-this-browser&next=%2Fdashboard`);
    assert.equal((await redeem).status(), 400);
    await page.getByTestId('provider-error').waitFor();
    assert.equal(await page.getByTestId('provider-error').innerText(), 'La connexion avec Google a expiré ou a été commencée dans un autre navigateur. Réessaie.');
    const url = new URL(page.url());
    assert.deepEqual([url.pathname, url.searchParams.has('code'), url.searchParams.get('next')], ['/login', false, '/dashboard']);
    assert.equal(await page.evaluate(() => (globalThis as any).localStorage.getItem('apiKey')), null);
    await context.close();
  });
});
