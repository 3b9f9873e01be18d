/**
 * Browser smoke test of the built app against the real bt server (foundation endpoints: accounts,
 * sessions, profile). Run: `npm run build -w @bt/web && npm run e2e -w @bt/web`. Screenshots go to
 * test-results/web-e2e/ (or BT_SCREENSHOTS). The backtest run itself waits for issue 6's endpoints:
 * here it checks the form's messages and that a failed call shows an error without charging.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './browser.js';
import { startBtServer, type RunningServer } from './bt-server.js';
import { serveApp } from './static-server.js';

const webDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = join(webDir, '..', '..');
const shots = process.env.BT_SCREENSHOTS ?? join(repoDir, 'test-results', 'web-e2e');
mkdirSync(shots, { recursive: true });

let browser: Browser;
let server: RunningServer;
let app: { url: string; close: () => Promise<void> };
let apiTarget: string | null = null;

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
}

async function newPage(width = 1280, height = 900): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height }, locale: 'fr-FR' });
  const page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  return page;
}

const user = { first: 'Ana', last: 'Lima', email: `ana.${Date.now()}@bt.test`, username: `ana${Date.now()}`, password: 'motdepasse-123' };

before(async () => {
  app = await serveApp(join(webDir, 'dist'), () => apiTarget);
  server = await startBtServer(repoDir, () => app.url);
  apiTarget = server.url;
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await app?.close();
});

describe('web app against the bt server', () => {
  it('a visitor sees the home page, its call to action and the top-strategies area', async () => {
    const page = await newPage();
    await page.goto(`${app.url}/`);
    await page.getByTestId('hero-cta').waitFor();
    assert.equal(await page.getByTestId('hero-cta').getAttribute('href'), '/backtest');
    assert.equal(await page.getByTestId('credits-badge').innerText(), '— crédits');
    await page.locator('.top-strategies .top-message, .top-strategies [data-testid=top-strategy-card]').first().waitFor();
    assert.equal(await page.locator('#hex-canvas').count(), 1);
    await shot(page, '01-home');
    await page.context().close();
  });

  it('guards send visitors to /login with the next parameter; unknown paths go home', async () => {
    const page = await newPage();
    await page.goto(`${app.url}/dashboard?tab=csv#x`);
    await page.waitForURL(/\/login\?next=/);
    assert.equal(new URL(page.url()).searchParams.get('next'), '/dashboard?tab=csv#x');
    await page.goto(`${app.url}/nowhere/at/all`);
    await page.waitForURL(/\/home$/);
    await page.context().close();
  });

  it('registers, shows the success overlay, verifies the address and gets the credits', async () => {
    const page = await newPage();
    await page.goto(`${app.url}/login?tab=register&next=%2Fbacktest`);
    const form = page.getByTestId('register-form');
    await form.getByLabel('Prénom').fill(user.first);
    await form.getByLabel('Nom', { exact: true }).fill(user.last);
    await form.getByLabel('E-mail').fill('pas un email');
    await form.getByLabel('Nom d’utilisateur').fill(user.username);
    await form.getByLabel('Mot de passe').fill(user.password);
    await form.getByRole('button', { name: 'Créer mon compte' }).click();
    await page.getByText('Adresse e-mail invalide.').waitFor();
    await form.getByLabel('E-mail').fill(user.email);
    await form.getByRole('button', { name: 'Créer mon compte' }).click();
    await page.getByTestId('signup-success').waitFor();
    await shot(page, '02-signup-success');
    const verifyHref = await page.getByTestId('signup-success').getByRole('link', { name: 'confirme ton adresse ici' }).getAttribute('href');
    assert.ok(verifyHref, 'without SMTP the server returns the verification link');
    assert.equal(await page.getByTestId('credits-badge').count(), 0, 'the login page has no top bar');
    await page.getByTestId('signup-continue').click();
    await page.waitForURL(/\/backtest$/);
    assert.equal(await page.getByTestId('credits-badge').innerText(), '0 crédits');
    await page.goto(verifyHref!);
    await page.waitForURL(/\/profile\?verified=1/);
    await page.getByTestId('credits-badge').getByText('2').waitFor();
    assert.equal(await page.getByTestId('avatar').innerText(), 'AL');
    await shot(page, '03-verified-profile');
    await page.context().close();
  });

  it('logs in with the username and goes to the next path', async () => {
    const page = await newPage();
    await page.goto(`${app.url}/login?next=%2Fprofile`);
    await page.getByTestId('login-form').getByLabel('E-mail ou nom d’utilisateur').fill(user.username);
    await page.getByTestId('login-form').getByLabel('Mot de passe').fill('wrong-password');
    await page.getByTestId('login-form').getByRole('button', { name: 'Se connecter' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByTestId('login-form').getByLabel('Mot de passe').fill(user.password);
    await page.getByTestId('login-form').getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL(/\/profile$/);
    assert.equal(await page.getByRole('link', { name: 'Admin' }).count(), 0, 'no Admin entry for a user');
    await page.goto(`${app.url}/admin`);
    await page.waitForURL(/\/dashboard$/);
    await page.context().close();
  });

  it('the backtest form shows the spec messages', async () => {
    const page = await newPage();
    await page.goto(`${app.url}/login?next=%2Fbacktest`);
    await page.getByTestId('login-form').getByLabel('E-mail ou nom d’utilisateur').fill(user.email);
    await page.getByTestId('login-form').getByLabel('Mot de passe').fill(user.password);
    await page.getByTestId('login-form').getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL(/\/backtest$/);
    await page.getByTestId('symbol').selectOption('EURUSD');
    await page.getByTestId('start-date').fill('2025-01-01');
    await page.getByTestId('end-date').fill('2025-02-15');
    await page.getByTestId('run-backtest').click();
    assert.equal(await page.getByTestId('form-error').innerText(), 'Choisis une stratégie (officielle ou générée).');
    await page.getByTestId('official-strategy').selectOption('ob_pullback_pure_rsi');
    await page.getByTestId('run-backtest').click();
    assert.equal(await page.getByTestId('form-error').innerText(), 'Période trop longue (46 jours). Maximum: 31 jours.');
    await page.getByTestId('end-date').fill('2024-12-01');
    await page.getByTestId('run-backtest').click();
    assert.equal(await page.getByTestId('form-error').innerText(), 'La date de début doit être ≤ à la date de fin.');
    await shot(page, '04-backtest-validation');
    await page.context().close();
  });

  it('an admin sees the Admin entry and reaches /admin', async () => {
    const page = await newPage();
    await page.goto(`${app.url}/login?next=%2Fadmin`);
    await page.getByTestId('login-form').getByLabel('E-mail ou nom d’utilisateur').fill(server.admin.email);
    await page.getByTestId('login-form').getByLabel('Mot de passe').fill(server.admin.password);
    await page.getByTestId('login-form').getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL(/\/admin$/);
    await page.getByRole('heading', { name: 'Administration' }).waitFor();
    await page.getByRole('link', { name: 'Admin' }).waitFor();
    await page.context().close();
  });

  it('at 375 px the links fold into a hamburger that closes on navigation', async () => {
    const page = await newPage(375, 800);
    await page.goto(`${app.url}/home`);
    const burger = page.getByRole('button', { name: 'Menu' });
    await burger.waitFor();
    assert.equal(await page.locator('#main-nav').isVisible(), false);
    await burger.click();
    assert.equal(await page.locator('#main-nav').isVisible(), true);
    await shot(page, '05-mobile-menu');
    await page.locator('#main-nav').getByRole('link', { name: 'À savoir' }).click();
    await page.waitForURL(/\/a-savoir$/);
    assert.equal(await page.locator('#main-nav').isVisible(), false);
    await page.context().close();
  });

  it('legal and support pages render with their texts', async () => {
    const page = await newPage();
    await page.goto(`${app.url}/legal/cgu`);
    await page.getByText('Dernière mise à jour : 13-10-2025').waitFor();
    await page.getByText('Les crédits ne sont ni remboursables ni convertibles en argent.').waitFor();
    await page.goto(`${app.url}/support/support`);
    assert.equal(await page.locator('meta[name=robots]').getAttribute('content'), 'noindex, nofollow');
    await page.getByTestId('support-form').getByLabel('Nom', { exact: true }).fill('Lima');
    await page.getByTestId('support-form').getByLabel('Prénom').fill('Ana');
    await page.getByTestId('support-form').getByLabel('E-mail').fill('ana.bt.test');
    await page.getByTestId('support-form').getByLabel('Message').fill('Bonjour');
    await page.getByTestId('support-submit').click();
    await page.getByText('Merci d’entrer une adresse e-mail valide (doit contenir un @).').waitFor();
    await page.getByTestId('support-form').getByLabel('E-mail').fill('ana@bt.test');
    await page.getByTestId('support-submit').click();
    await page.getByTestId('support-submit').getByText('Envoyé').waitFor();
    await shot(page, '06-support-sent');
    await page.context().close();
  });
});
