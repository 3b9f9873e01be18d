/**
 * A page that cannot be shown (shell/PageErrorBoundary.tsx) in Chromium against the real bt
 * server: its code cannot be loaded (a network cut, or a deployment that replaced the files this
 * tab was built against). The bar stays, a French message and a reload button replace the page,
 * and the other pages still open. And lists answered with a body that is not JSON say they failed
 * to load instead of 'nothing yet'. Run after `npm run build -w @bt/web`:
 * `npx tsx --conditions=@bt/source --test e2e/page-errors.test.ts`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newUser, signedInPage, useServerAndBrowser } from './work-area-support.js';

const running = useServerAndBrowser();

describe('a page that cannot be shown', () => {
  it("its code does not load: the message and the reload button, never a blank page; another page still opens", async () => {
    const page = await signedInPage(running.browser, running.server, null, '/home');
    await page.getByRole('navigation', { name: 'Navigation principale' }).waitFor({ state: 'attached' });
    // The boundary logs the failure for developers; the page itself must not throw past it.
    page.removeAllListeners('pageerror');
    await page.route('**/assets/CsvShopPage-*.js', (route) => route.abort('internetdisconnected'));

    await page.getByRole('navigation', { name: 'Navigation principale' }).getByRole('link', { name: 'CSV Shop' }).click({ force: true });
    const failure = page.getByTestId('page-error');
    await failure.waitFor();
    assert.equal(await failure.getByRole('heading').innerText(), 'Cette page n’a pas pu s’afficher.');
    await failure.getByRole('button', { name: 'Recharger la page' }).waitFor();
    assert.equal(await page.getByTestId('credits-badge').count(), 1, 'the bar stays');

    await page.getByRole('navigation', { name: 'Navigation principale' }).getByRole('link', { name: 'Tarifs' }).click({ force: true });
    await page.getByRole('heading', { name: 'Tarifs', level: 1 }).waitFor();
    assert.equal(await page.getByTestId('page-error').count(), 0, 'another page leaves the failure behind');

    // Opened straight from the address: the same message, not an empty document.
    await page.goto(`${running.server.url}/csv-shop`);
    await page.getByTestId('page-error').waitFor();
    await page.context().close();
  });

  it('/pricing whose payment methods cannot be read says so, not that the server has none', async () => {
    const page = await signedInPage(running.browser, running.server, null, '/home');
    await page.route('**/api/payment/methods', (route) => route.abort('internetdisconnected'));
    await page.goto(`${running.server.url}/pricing`);
    const error = page.getByTestId('methods-error');
    await error.waitFor();
    assert.equal(await error.innerText(), 'Impossible de charger les moyens de paiement. Vérifie ta connexion, puis recharge la page.');
    assert.equal(await page.getByText('Le paiement en ligne n’est pas disponible sur ce serveur pour le moment.').count(), 0);
    await page.context().close();
  });

  it('a stored key whose profile cannot be read (offline, 429, 5xx) is kept: the guard offers to retry instead of signing out', async () => {
    const user = await newUser(running.server, { verified: true });
    const page = await signedInPage(running.browser, running.server, user.key, '/home');
    await page.route('**/api/me', (route) => route.fulfill({ status: 429, headers: { 'Retry-After': '30' }, json: { detail: 'Trop de requêtes. Réessaie dans 30 s.' } }));
    await page.goto(`${running.server.url}/dashboard`);
    const unavailable = page.getByTestId('session-unavailable');
    await unavailable.getByText('Impossible de joindre le serveur pour le moment. Ta session est conservée.').waitFor();
    assert.equal(new URL(page.url()).pathname, '/dashboard', 'not sent to /login');
    assert.equal(await page.evaluate(() => (globalThis as any).localStorage.getItem('apiKey')), user.key, 'the key is kept');
    await page.unroute('**/api/me');
    await unavailable.getByRole('button', { name: 'Réessayer' }).click();
    await page.getByRole('tab', { name: 'Mon dashboard' }).waitFor();
    await page.context().close();
  });

  it("the dashboard's lists answered with a page that is not JSON: the load errors, not 'nothing yet'", async () => {
    // A proxy's page, or the app's own index.html served for a wrong API address.
    const user = await newUser(running.server, { verified: true });
    const page = await signedInPage(running.browser, running.server, user.key, '/home');
    await page.route(/\/api\/user\/(backtests|strategies)(\?|$)/, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><html><body>bt</body></html>' }));
    await page.goto(`${running.server.url}/dashboard`);
    await page.getByText('Erreur de chargement des backtests').waitFor();
    assert.equal(await page.getByText("Aucun backtest pour l'instant.").count(), 0);
    assert.equal(await page.getByText('Aucune stratégie pour le moment.').count(), 0);
    await page.getByTestId('strategies-section').getByText('Erreur de chargement', { exact: true }).waitFor();
    await page.context().close();
  });
});
