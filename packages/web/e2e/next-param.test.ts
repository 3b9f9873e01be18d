/**
 * The `next` parameter of /login (docs/product.md §1.5, session/next.ts) in Chromium against the
 * real bt server: after a sign-in (the password form, the return of the Google sign-in with its
 * one-time code, or a link's key on that page), a path of this site is followed and anything that could leave it (another host,
 * a scheme, backslash and control-character tricks, in any letter case) lands on /home of this
 * origin, as does a sign-in or password page (which would show the login page again). Run after `npm run build -w @bt/web`:
 * `npx tsx --conditions=@bt/source --test e2e/next-param.test.ts`.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startOidcProvider, type TestProvider } from '../../server/test/support/oidc-provider.js';
import { newUser, useServerAndBrowser, type TestUser } from './work-area-support.js';

let user: TestUser;
let provider: TestProvider | undefined;
const running = useServerAndBrowser(
  async ({ server }) => {
    user = await newUser(server, { verified: true });
  },
  async () => {
    provider = await startOidcProvider();
    return { env: { GOOGLE_CLIENT_ID: provider.clientId, GOOGLE_CLIENT_SECRET: provider.clientSecret, OIDC_ISSUER: provider.issuer } };
  },
);

after(async () => {
  await provider?.close();
});

const OUTSIDE = [
  '//evil.example',
  ' //evil.example',
  'https://evil.example/x',
  'HTTPS://evil.example',
  'http:evil.example',
  '/\\evil.example',
  '\\\\evil.example',
  '/\t/evil.example',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'evil.example',
];

async function fresh(): Promise<Page> {
  const context = await running.browser.newContext({ locale: 'fr-FR', reducedMotion: 'reduce' });
  const page = await context.newPage();
  page.on('dialog', (dialog) => void dialog.dismiss());
  return page;
}

/** Where the browser settles: the origin and path of its address. */
async function settled(page: Page, origin: string, pathname: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === pathname && !url.searchParams.has('apiKey'));
  const url = new URL(page.url());
  assert.equal(url.origin, origin);
  assert.equal(url.pathname, pathname);
}

describe('next parameter of /login', () => {
  it('a key on the return page (a link, since no return bears one) follows a path of this site and sends anything else to /home', async () => {
    const origin = new URL(running.server.url).origin;
    for (const next of [...OUTSIDE, '/dashboard?tab=csv#top']) {
      const page = await fresh();
      await page.goto(`${running.server.url}/login?provider=google&apiKey=${encodeURIComponent(user.key)}&next=${encodeURIComponent(next)}`);
      await settled(page, origin, next.startsWith('/dashboard') ? '/dashboard' : '/home');
      await page.context().close();
    }
  });

  it('the Google sign-in\'s return (a one-time code, no key in any address) follows a path of this site; the server drops the others', async () => {
    const origin = new URL(running.server.url).origin;
    let n = 0;
    for (const [next, lands] of [['/dashboard?tab=csv', '/dashboard'], ['//evil.example', '/home'], ['/\\evil.example', '/home']]) {
      provider!.signIn({ sub: `g-next-${++n}`, email: `next${n}.e2e@bt.test`, email_verified: true, given_name: 'Nina', family_name: 'Next' });
      const page = await fresh();
      const seen: string[] = [];
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) seen.push(frame.url());
      });
      await page.goto(`${running.server.url}/login?next=${encodeURIComponent(next)}`);
      await page.getByTestId('google-signin').click();
      await settled(page, origin, lands);
      await page.getByTestId('avatar').waitFor();
      assert.ok(seen.some((url) => new URL(url).searchParams.has('code')), seen.join('\n'));
      for (const url of seen) assert.doesNotMatch(url, /[?&](apiKey|api_key|token)=/i, url);
      await page.context().close();
    }
  });

  it('the password form does the same', async () => {
    const origin = new URL(running.server.url).origin;
    // A sign-in or password page as next would land on the login page again: /home too.
    for (const next of ['//evil.example', '/\\evil.example', 'JaVaScRiPt:alert(1)', '/login', '/login?tab=register', '/forgot-password', '/reset-password/abc']) {
      const page = await fresh();
      await page.goto(`${running.server.url}/login?next=${encodeURIComponent(next)}`);
      await page.getByLabel('E-mail ou nom d’utilisateur').fill(user.username);
      await page.getByLabel('Mot de passe').fill(user.password);
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await settled(page, origin, '/home');
      await page.context().close();
    }
  });
});
