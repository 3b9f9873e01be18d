/**
 * A key in the address against a real bt server (docs/security.md "Sessions", docs/web.md
 * "Session"): a link carrying another account's key while a session is live asks first (staying
 * keeps the account, switching switches); a link with no session signs in but says so, with a way
 * out; the return of a Google sign-in (the local OpenID provider of the server's tests stands in
 * for Google) carries a one-time code, never a key, and asks nothing. Run after the builds of docs/development.md:
 * `npx tsx --conditions=@bt/source --test e2e/address-key.test.ts`.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startOidcProvider, type TestProvider } from '../../server/test/support/oidc-provider.js';
import { api, newUser, shot, useServerAndBrowser, type TestUser } from './work-area-support.js';

let provider: TestProvider | undefined;

let ana: TestUser;
let marc: TestUser;

const running = useServerAndBrowser(async ({ server }) => {
  ana = await newUser(server, { first: 'Ana', last: 'Lima' });
  marc = await newUser(server, { first: 'Marc', last: 'Voleur' });
}, async () => {
  provider = await startOidcProvider();
  return { env: { GOOGLE_CLIENT_ID: provider.clientId, GOOGLE_CLIENT_SECRET: provider.clientSecret, OIDC_ISSUER: provider.issuer } };
});

after(async () => {
  await provider?.close();
});

const SWITCH_TITLE = 'Ce lien veut te connecter à un autre compte.';

/** A fresh browser whose stored session is `user`'s (as if signed in earlier, no link involved). */
async function signedInAs(user: TestUser): Promise<Page> {
  const context = await running.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'fr-FR', reducedMotion: 'reduce' });
  const page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto(`${running.server.url}/a-savoir`);
  await page.evaluate((key) => (globalThis as any).localStorage.setItem('apiKey', key), user.key);
  await page.goto(`${running.server.url}/home`);
  await avatarIs(page, 'AL');
  return page;
}

async function avatarIs(page: Page, initials: string): Promise<void> {
  await page.getByTestId('avatar').getByText(initials, { exact: true }).waitFor();
}

const storedKey = (page: Page) => page.evaluate(() => (globalThis as any).localStorage.getItem('apiKey') as string | null);
const focusedTestId = (page: Page) => page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('data-testid') as string | null);

describe('a key in the address', () => {
  it('a live session and a link with another account\'s key: asked first; Escape and « Rester » keep the account, « Changer » switches', async () => {
    const page = await signedInAs(ana);
    // Shaped as a Google return, which this tab never started.
    await page.goto(`${running.server.url}/login?provider=google&apiKey=${encodeURIComponent(marc.key)}&next=%2Fdashboard`);
    const dialog = page.getByRole('dialog', { name: SWITCH_TITLE });
    await dialog.waitFor();
    assert.equal(await dialog.getAttribute('aria-modal'), 'true');
    assert.equal(await dialog.getByTestId('account-switch-target').innerText(), `Compte du lien : ${marc.username}.`);
    assert.match(await dialog.innerText(), new RegExp(`Tu es connecté au compte ${ana.username}\\.`));
    assert.ok(!new URL(page.url()).searchParams.has('apiKey'), 'the key has left the address already');
    assert.equal(await focusedTestId(page), 'account-switch-stay', 'the default choice has the focus');
    // Tab stays inside: from the last control to the first (the close button) and back.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('aria-label')), 'Fermer');
    await page.keyboard.press('Shift+Tab');
    assert.equal(await focusedTestId(page), 'account-switch-stay');
    await shot(page, 'address-key-01-asked', false);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // The return page went on to `next`, still as Ana.
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await avatarIs(page, 'AL');
    assert.equal(await storedKey(page), ana.key);
    assert.equal(await page.getByTestId('link-notice').count(), 0);

    // A plain link this time: « Rester sur mon compte ».
    await page.goto(`${running.server.url}/profile?apiKey=${encodeURIComponent(marc.key)}`);
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Rester sur mon compte' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(new URL(page.url()).pathname, '/profile');
    assert.ok(!new URL(page.url()).searchParams.has('apiKey'));
    assert.equal(await page.getByTestId('summary-email').innerText(), ana.email);
    assert.equal(await storedKey(page), ana.key);
    // Reloading asks nothing again: the key is gone from the address.
    await page.reload();
    await page.getByTestId('summary-email').getByText(ana.email).waitFor();
    assert.equal(await dialog.count(), 0);

    // « Changer de compte »: the link's account, as if signed in by the form (no notice).
    await page.goto(`${running.server.url}/profile?apiKey=${encodeURIComponent(marc.key)}`);
    await dialog.getByRole('button', { name: 'Changer de compte' }).click();
    await dialog.waitFor({ state: 'detached' });
    await avatarIs(page, 'MV');
    await page.getByTestId('summary-email').getByText(marc.email).waitFor();
    assert.equal(await storedKey(page), marc.key);
    assert.equal(await page.getByTestId('link-notice').count(), 0);
    await page.context().close();
  });

  it('a link with a key the server refuses: nothing asked, nothing stored, the session untouched', async () => {
    const page = await signedInAs(ana);
    await page.goto(`${running.server.url}/profile?apiKey=not-a-real-key`);
    await page.getByTestId('summary-email').getByText(ana.email).waitFor();
    assert.equal(await page.getByRole('dialog').count(), 0);
    assert.equal(await storedKey(page), ana.key);
    await page.context().close();
  });

  it('no session and a link: signed in, with a notice naming the account; « Se déconnecter » signs out', async () => {
    const victim = await newUser(running.server, { first: 'Vera', last: 'Nova' });
    const context = await running.browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'fr-FR', reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(`${running.server.url}/csv-shop?apiKey=${encodeURIComponent(victim.key)}`);
    const notice = page.getByTestId('link-notice');
    await notice.waitFor();
    assert.equal(await notice.getAttribute('role'), 'status');
    assert.match(await notice.innerText(), new RegExp(`^Connecté au compte ${victim.username} par un lien\\. Ce n’est pas toi \\?`));
    assert.ok(!new URL(page.url()).searchParams.has('apiKey'));
    const overflow = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth > (globalThis as any).innerWidth);
    assert.equal(overflow, false, 'the notice fits a phone');
    await shot(page, 'address-key-02-link-notice', false);
    // Moving about the site keeps it in view until answered.
    await page.getByTestId('credits-badge').click();
    await page.waitForURL((url) => url.pathname === '/pricing');
    await notice.waitFor();
    await notice.getByRole('button', { name: 'Se déconnecter' }).click();
    await notice.waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Connexion' }).waitFor();
    assert.equal(await storedKey(page), null);
    // The logout ended the link's key on the server too (the call is sent as the page signs out).
    let status = 200;
    for (let i = 0; i < 50 && status === 200; i++) {
      status = (await api(running.server, 'GET', '/api/me', { key: victim.key })).status;
      if (status === 200) await page.waitForTimeout(100);
    }
    assert.equal(status, 401);

    // Hidden instead, the notice goes and the session stays; a reload does not bring it back.
    const other = await newUser(running.server, { first: 'Otto', last: 'Weber' });
    await page.goto(`${running.server.url}/home?apiKey=${encodeURIComponent(other.key)}`);
    await notice.waitFor();
    await notice.getByRole('button', { name: 'Masquer ce message' }).click();
    await notice.waitFor({ state: 'detached' });
    await avatarIs(page, 'OW');
    await page.reload();
    await avatarIs(page, 'OW');
    assert.equal(await notice.count(), 0);
    await context.close();
  });

  it('the return of a Google sign-in started in this tab switches without a question or a notice', async () => {
    provider!.signIn({ sub: 'g-addr-1', email: 'gaby.addr@bt.test', email_verified: true, given_name: 'Gaby', family_name: 'Roux' });
    const page = await signedInAs(ana);
    await page.goto(`${running.server.url}/login?next=%2Fdashboard`);
    const seen: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) seen.push(frame.url());
    });
    await page.getByTestId('google-signin').click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await avatarIs(page, 'GR');
    assert.equal(await page.getByRole('dialog').count(), 0);
    assert.equal(await page.getByTestId('link-notice').count(), 0);
    assert.notEqual(await storedKey(page), ana.key);
    // The return carried a one-time code that only this browser could redeem, never a key.
    assert.ok(seen.some((url) => new URL(url).searchParams.has('code')), seen.join('\n'));
    for (const url of seen) assert.doesNotMatch(url, /[?&](apiKey|api_key|token)=/i, url);
    await page.context().close();
  });
});
