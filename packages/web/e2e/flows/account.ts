/**
 * Sign-up, e-mail verification (the link the server answers without SMTP), sign-in, the
 * password-reset form and the admin entry, with the messages of docs/product.md §1.5 and §8.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newAccount } from '../support/api.js';
import type { Flow } from '../support/flow.js';
import { creditsShown, signIn } from '../support/ui.js';

export function accountFlow(flow: Flow): void {
  describe('a new trader', () => {
    const account = newAccount('Ana', 'Lima');

    it('registers (bad address first), sees the success overlay, verifies and gets 2 credits', async () => {
      const { page, close } = await flow.h.newPage();
      const health = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/health');
      await page.goto(`${flow.h.url}/login?tab=register&next=%2Fbacktest`);
      // This server has no Google sign-in: the button says so instead of leading to a raw 503 answer.
      assert.deepEqual((await (await health).json()).sign_in, []);
      await page.getByTestId('google-unavailable').getByText('La connexion avec Google n’est pas disponible sur ce serveur.').waitFor();
      assert.equal(await page.getByTestId('google-signin').isDisabled(), true);
      const form = page.getByTestId('register-form');
      await form.getByRole('button', { name: 'Créer mon compte' }).click();
      assert.equal(await form.getByRole('alert').innerText(), 'Tous les champs sont obligatoires.');
      await form.getByLabel('Prénom').fill(account.firstName);
      await form.getByLabel('Nom', { exact: true }).fill(account.lastName);
      await form.getByLabel('E-mail').fill('pas un email');
      await form.getByLabel('Nom d’utilisateur').fill(account.username);
      await form.getByLabel('Mot de passe').fill(account.password);
      await form.getByRole('button', { name: 'Créer mon compte' }).click();
      assert.equal(await form.getByRole('alert').innerText(), 'Adresse e-mail invalide.');
      await form.getByLabel('E-mail').fill(account.email);
      await form.getByLabel('Mot de passe').fill('court');
      await form.getByRole('button', { name: 'Créer mon compte' }).click();
      // The server's own message (docs/product.md §1.8: the alert shows it).
      await form.getByRole('alert').getByText('8 caractères minimum.', { exact: true }).waitFor();
      await form.getByLabel('Mot de passe').fill(account.password);
      await form.getByRole('button', { name: 'Créer mon compte' }).click();
      const success = page.getByTestId('signup-success');
      await success.waitFor();
      await success.getByText('Compte créé. Vérifie ton adresse e-mail pour recevoir tes 2 crédits offerts.').waitFor();
      await flow.h.shot(page, '10-signup-success');
      const verifyHref = await success.getByRole('link', { name: 'confirme ton adresse ici' }).getAttribute('href');
      assert.ok(verifyHref, 'without SMTP the server returns the verification link');
      assert.equal(await page.getByTestId('credits-badge').count(), 0, 'the login page has no top bar');
      await page.getByTestId('signup-continue').click();
      await page.waitForURL(/\/backtest$/);
      await page.getByTestId('credits-badge').locator('strong').getByText('0', { exact: true }).waitFor();
      await page.goto(verifyHref!);
      await page.waitForURL(/\/profile\?verified=1$/);
      await page.getByTestId('credits-badge').locator('strong').getByText('2', { exact: true }).waitFor();
      assert.equal(await page.getByTestId('avatar').innerText(), 'AL');
      await flow.h.shot(page, '11-verified-profile');
      await close();
      flow.trader = account;
    });

    it('cannot register the same address twice (the server message)', async () => {
      const { page, close } = await flow.h.newPage();
      await page.goto(`${flow.h.url}/login?tab=register`);
      const form = page.getByTestId('register-form');
      await form.getByLabel('Prénom').fill('Ana');
      await form.getByLabel('Nom', { exact: true }).fill('Lima');
      await form.getByLabel('E-mail').fill(account.email.toUpperCase());
      await form.getByLabel('Nom d’utilisateur').fill(`${account.username}x`);
      await form.getByLabel('Mot de passe').fill(account.password);
      await form.getByRole('button', { name: 'Créer mon compte' }).click();
      await form.getByRole('alert').getByText('Un compte existe déjà avec cette adresse e-mail.', { exact: true }).waitFor();
      await close();
    });

    it('signs in with the username after a wrong password, and lands on next', async () => {
      const { page, close } = await flow.h.newPage();
      await page.goto(`${flow.h.url}/login?next=%2Fprofile`);
      const form = page.getByTestId('login-form');
      await form.getByLabel('E-mail ou nom d’utilisateur').fill(account.username);
      await form.getByLabel('Mot de passe').fill('wrong-password');
      await form.getByRole('button', { name: 'Se connecter' }).click();
      await form.getByRole('alert').getByText('Identifiants invalides', { exact: true }).waitFor();
      await flow.h.shot(page, '12-login-refused');
      await form.getByLabel('Mot de passe').fill(account.password);
      await form.getByRole('button', { name: 'Se connecter' }).click();
      await page.waitForURL(/\/profile$/);
      assert.equal(await creditsShown(page), 2);
      assert.equal(await page.getByRole('link', { name: 'Admin' }).count(), 0, 'no Admin entry for a user');
      await page.goto(`${flow.h.url}/admin`);
      await page.waitForURL(/\/dashboard$/);
      await close();
    });

    it('the reset-password form checks its fields, then shows the server refusal of a bad link', async () => {
      const { page, close } = await flow.h.newPage();
      await page.goto(`${flow.h.url}/reset-password/not-a-real-token`);
      const submit = page.getByRole('button', { name: 'Changer mon mot de passe' });
      await page.getByLabel('Nouveau mot de passe').fill('court');
      await page.getByLabel('Confirmation').fill('court');
      await submit.click();
      assert.equal(await page.getByRole('alert').innerText(), '8 caractères minimum.');
      await page.getByLabel('Nouveau mot de passe').fill('nouveau-mot-de-passe');
      await submit.click();
      assert.equal(await page.getByRole('alert').innerText(), 'Les mots de passe ne correspondent pas.');
      await page.getByLabel('Confirmation').fill('nouveau-mot-de-passe');
      await submit.click();
      await page.getByRole('alert').getByText('Lien invalide ou expiré.', { exact: true }).waitFor();
      await flow.h.shot(page, '13-reset-invalid-link');
      await close();
    });

    it('an admin sees the Admin entry and reaches /admin', async () => {
      const { page, close } = await flow.h.newPage();
      await signIn(page, flow.h.url, flow.h.server.admin.email, flow.h.server.admin.password, '/admin');
      await page.getByRole('heading', { name: 'Administration' }).waitFor();
      await page.getByRole('link', { name: 'Admin' }).waitFor();
      await close();
    });

  });
}
