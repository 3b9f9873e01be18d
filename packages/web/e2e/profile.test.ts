/**
 * The profile (/profile, docs/product.md §2.2, §2.4, §2.5, §2.8) in Chromium against the real bt server: e-mail
 * verification and the `verified` banner, avatar colour, personal info, password (then a login
 * with it), purchase history, quick actions and the failure messages.
 * Run after `npm run build -w @bt/web`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { api, badgeCredits, grantCredits, newUser, repoDir, shot, signedInPage, useServerAndBrowser } from './work-area-support.js';

const running = useServerAndBrowser();

describe('profile against the bt server', () => {
  it('verifies the address from the card, shows the verified banner, the credits and their history', async () => {
    const user = await newUser(running.server);
    const page = await signedInPage(running.browser, running.server, user.key, '/profile');
    await page.getByTestId('account-summary').waitFor();
    assert.equal(await page.getByTestId('summary-email').innerText(), user.email);
    assert.equal(await badgeCredits(page), '0');
    await page.getByTestId('resend-verification').click();
    const outcome = page.getByTestId('verification-outcome');
    await outcome.waitFor();
    // No SMTP on the test server: its warning comes with the link itself.
    assert.match(await outcome.innerText(), /L'envoi d'e-mails n'est pas configuré/);
    const link = await outcome.getByRole('link', { name: 'Lien de vérification' }).getAttribute('href');
    await page.goto(link!);
    await page.waitForURL(/\/profile\?verified=1$/);
    assert.equal(await page.getByTestId('verified-banner').innerText(), 'Adresse e-mail vérifiée : tes 2 crédits offerts sont ajoutés.');
    await page.getByTestId('email-verified').waitFor();
    await page.getByTestId('credits-badge').getByText('2', { exact: true }).waitFor();
    assert.equal(await page.getByTestId('summary-credits').innerText(), '2');
    assert.match(await page.getByTestId('history-row').first().innerText(), /Crédits offerts \(adresse e-mail vérifiée\)\s+—\s+\+2/);
    await shot(page, 'profile-01-verified');
    // The same link again: still verified, and the page does not announce the credits twice.
    await page.goto(link!);
    await page.waitForURL(/\/profile\?verified=1&credits=already$/);
    assert.equal(await page.getByTestId('verified-banner').innerText(), 'Adresse e-mail vérifiée. Tes 2 crédits offerts avaient déjà été ajoutés.');
    await page.getByTestId('summary-credits').getByText('2', { exact: true }).waitFor();

    // A second resend: the address is already verified (409); a stale link reads as invalid.
    const again = await api(running.server, 'POST', '/api/auth/resend-verification', { key: user.key });
    assert.equal(again.status, 409);
    await page.goto(`${running.server.url}/profile?verified=0`);
    assert.equal(await page.getByTestId('verified-banner').innerText(), 'Lien invalide ou expiré.');
    await page.goto(`${running.server.url}/profile?verified=maybe`);
    await page.getByTestId('account-summary').waitFor();
    assert.equal(await page.getByTestId('verified-banner').count(), 0);

    // Purchase history: 5 entries, then all.
    for (let i = 0; i < 5; i++) await grantCredits(running.server, user.id, 1);
    await page.reload();
    await page.getByTestId('history-row').first().waitFor();
    assert.equal(await page.getByTestId('history-row').count(), 5);
    await page.getByTestId('history-toggle').click();
    assert.equal(await page.getByTestId('history-row').count(), 6);
    const newest = (await api(running.server, 'GET', '/api/me', { key: user.key })).body.purchase_history[0];
    assert.match(await page.getByTestId('history-row').first().innerText(), new RegExp(`${newest.label}\\s+—\\s+\\+1\\s+${newest.txid ?? '—'}`));
    await page.context().close();
  });

  it('changes the avatar colour, the personal info and the password, with their failure messages', async () => {
    const user = await newUser(running.server, { verified: true });
    const page = await signedInPage(running.browser, running.server, user.key, '/profile');
    await page.getByTestId('avatar-picker').waitFor();
    await page.getByTestId('avatar-picker').locator('[data-color="#dc2626"]').click();
    const avatar = page.getByTestId('avatar');
    const background = () => avatar.evaluate((node) => (node as unknown as { style: { backgroundColor: string } }).style.backgroundColor);
    assert.equal(await background(), 'rgb(220, 38, 38)', 'the top bar follows at once');
    await page.reload();
    await page.getByTestId('avatar-picker').waitFor();
    assert.equal(await background(), 'rgb(220, 38, 38)', 'and after a reload');

    const personal = page.getByTestId('personal-form');
    await personal.getByLabel('Nom complet').fill('Ana Maria Souza');
    await personal.getByRole('button', { name: 'Enregistrer' }).click();
    // Confirmations are toasts (3 s).
    await page.getByTestId('toast').getByText('Profil mis à jour.').waitFor();
    assert.equal(await page.getByTestId('summary-name').innerText(), 'Ana Maria Souza');
    assert.equal(await avatar.innerText(), 'AS');
    await personal.getByLabel('E-mail').fill(`new.${user.email}`);
    await personal.getByRole('button', { name: 'Enregistrer' }).click();
    assert.equal(await page.getByTestId('personal-outcome').innerText(), 'Mot de passe actuel obligatoire pour changer d’adresse e-mail.');
    await personal.getByLabel('Mot de passe actuel').fill('not-my-password');
    await personal.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByTestId('personal-outcome').getByText('Mot de passe actuel incorrect.').waitFor();

    const password = page.getByTestId('password-form');
    const submit = () => password.getByRole('button', { name: 'Changer le mot de passe' }).click();
    await password.getByLabel('Nouveau mot de passe', { exact: true }).fill('court');
    await password.getByLabel('Confirmer le nouveau mot de passe').fill('court');
    await submit();
    assert.equal(await page.getByTestId('password-outcome').innerText(), '8 caractères minimum.');
    await password.getByLabel('Nouveau mot de passe', { exact: true }).fill('nouveau-secret-456');
    await submit();
    assert.equal(await page.getByTestId('password-outcome').innerText(), 'Les mots de passe ne correspondent pas.');
    await password.getByLabel('Confirmer le nouveau mot de passe').fill('nouveau-secret-456');
    await password.getByLabel('Mot de passe actuel').fill('mauvais-mot-de-passe');
    await submit();
    await page.getByTestId('password-outcome').getByText('Mot de passe actuel incorrect.').waitFor();
    await password.getByLabel('Mot de passe actuel').fill(user.password);
    await submit();
    await page.getByTestId('toast').getByText('Mot de passe modifié.').waitFor();
    await shot(page, 'profile-02-forms');
    await page.context().close();

    // The new password opens a session in the browser; the old one no longer does.
    assert.equal((await api(running.server, 'POST', '/api/login', { json: { identifier: user.email, password: user.password } })).status, 401);
    const login = await signedInPage(running.browser, running.server, null, '/login?next=%2Fprofile');
    await login.getByTestId('login-form').getByLabel('E-mail ou nom d’utilisateur').fill(user.username);
    await login.getByTestId('login-form').getByLabel('Mot de passe').fill('nouveau-secret-456');
    await login.getByTestId('login-form').getByRole('button', { name: 'Se connecter' }).click();
    await login.waitForURL(/\/profile$/);
    assert.equal(await login.getByTestId('summary-name').innerText(), 'Ana Maria Souza');
    await login.context().close();
  });

  it('quick actions ask first: logout, unsubscribe (subscribers only), delete the account', async () => {
    const user = await newUser(running.server, { verified: true });
    const page = await signedInPage(running.browser, running.server, user.key, '/profile');
    await page.getByTestId('quick-actions').waitFor();
    assert.equal(await page.getByTestId('action-unsubscribe').isDisabled(), true, 'a free account has nothing to stop');
    assert.equal(await page.getByTestId('summary-plan').innerText(), 'Gratuit');
    assert.equal(await page.getByTestId('support-card').getByRole('link', { name: 'Contacter le support' }).getAttribute('href'), '/support/support');

    await page.getByTestId('action-logout').click();
    await page.getByRole('dialog', { name: 'Se déconnecter ?' }).getByRole('button', { name: 'Annuler' }).click();
    assert.equal(await badgeCredits(page), '2', 'cancelled: still signed in');
    await page.getByTestId('action-logout').click();
    await page.getByTestId('confirm-action').click();
    await page.waitForURL(/\/home$/);
    await page.getByTestId('credits-badge').getByText('—').waitFor();
    assert.equal(await page.getByRole('link', { name: 'Connexion' }).count(), 1);
    // The web app also ends the session on the server (POST /api/logout): the key is dead everywhere.
    await waitForStatus(() => api(running.server, 'GET', '/api/me', { key: user.key }), 401, 'logging out ends the key on the server');
    await page.context().close();

    const relogged = await api(running.server, 'POST', '/api/login', { json: { identifier: user.email, password: user.password } });
    assert.equal(relogged.status, 200);
    const fresh = relogged.body.token as string;
    const other = await signedInPage(running.browser, running.server, fresh, '/profile');
    await other.getByTestId('action-delete').click();
    const dialog = other.getByRole('dialog', { name: 'Supprimer ton compte ?' });
    assert.match(await dialog.innerText(), /irréversible/);
    // The deletion asks for the current password: missing (said by the page, nothing sent), then
    // wrong (the server's sentence in the dialog, nothing deleted), then right.
    await other.getByTestId('confirm-action').click();
    assert.equal(await other.getByTestId('delete-outcome').innerText(), 'Mot de passe actuel obligatoire pour supprimer ton compte.');
    await dialog.getByLabel('Mot de passe actuel').fill('pas-le-bon-123');
    await other.getByTestId('confirm-action').click();
    await other.getByTestId('delete-outcome').getByText('Mot de passe actuel incorrect.').waitFor();
    assert.equal((await api(running.server, 'GET', '/api/me', { key: fresh })).status, 200, 'a wrong password deletes nothing');
    await dialog.getByLabel('Mot de passe actuel').fill(user.password);
    await shot(other, 'profile-03-delete-confirm', false);
    await other.getByTestId('confirm-action').click();
    await other.waitForURL(/\/home$/);
    assert.equal((await api(running.server, 'GET', '/api/me', { key: fresh })).status, 401, 'the key stops working');
    assert.equal((await api(running.server, 'POST', '/api/login', { json: { identifier: user.email, password: user.password } })).status, 401, 'the account is gone');
    await other.context().close();
  });

  it('back from the Google sign-in an action asked for: that dialog or form again, with a note, and nothing sent', async () => {
    // The e2e server has no OpenID provider: an account created by Google sign-in (no password) is
    // a registered one whose profile says has_password: false. The Google round trip itself is
    // not driven; the page is opened at the address it comes back to.
    const user = await newUser(running.server, { verified: true });
    const page = await signedInPage(running.browser, running.server, user.key, '/home');
    await page.route('**/api/me', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...(await response.json()), has_password: false } });
    });
    const reauthGone = (url: URL) => url.pathname === '/profile' && !url.searchParams.has('reauth');

    await page.goto(`${running.server.url}/profile?reauth=delete`);
    const dialog = page.getByRole('dialog', { name: 'Supprimer ton compte ?' });
    await dialog.waitFor();
    assert.equal(await dialog.getByTestId('reauth-note').innerText(), 'Identité confirmée avec Google : tu peux maintenant supprimer ton compte.');
    assert.match(await dialog.innerText(), /Ton compte n’a pas de mot de passe/);
    await page.waitForURL(reauthGone);
    await shot(page, 'profile-04-reauth-delete', false);
    // Reopened, not sent: the user confirms again.
    assert.equal((await api(running.server, 'GET', '/api/me', { key: user.key })).status, 200, 'nothing deleted by itself');
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await page.getByTestId('action-delete').click();
    await dialog.waitFor();
    assert.equal(await dialog.getByTestId('reauth-note').count(), 0, 'the note belongs to the return only');
    await dialog.getByRole('button', { name: 'Annuler' }).click();

    await page.goto(`${running.server.url}/profile?reauth=email`);
    const personal = page.getByTestId('personal-form');
    await personal.getByTestId('reauth-note').waitFor();
    assert.equal(await personal.getByTestId('reauth-note').innerText(), 'Identité confirmée avec Google : tu peux maintenant changer ton adresse e-mail.');
    assert.equal(await personal.getByLabel('E-mail').evaluate((node) => node === (node as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement), true, 'the e-mail field has focus');
    await page.waitForURL(reauthGone);
    assert.equal(await dialog.count(), 0);

    await page.goto(`${running.server.url}/profile?reauth=password`);
    const password = page.getByTestId('password-form');
    await password.getByTestId('reauth-note').waitFor();
    assert.equal(await password.getByTestId('reauth-note').innerText(), 'Identité confirmée avec Google : tu peux maintenant choisir ton mot de passe.');
    assert.equal(await password.getByLabel('Nouveau mot de passe', { exact: true }).evaluate((node) => node === (node as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement), true, 'the new password has focus');
    await page.waitForURL(reauthGone);

    // Unknown values are ignored (never shown), and the parameter still leaves the address.
    for (const other of ['%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E', 'unsubscribe', 'DELETE']) {
      await page.goto(`${running.server.url}/profile?reauth=${other}`);
      await page.getByTestId('account-summary').waitFor();
      await page.waitForURL(reauthGone);
      assert.equal(await page.getByTestId('reauth-note').count(), 0, other);
      assert.equal(await dialog.count(), 0, other);
      assert.equal(await page.locator('img[src="x"]').count(), 0, other);
    }
    // The page may still be asking for /api/me: a handler's fetch then fails once its context is
    // closed, after the test, and node:test fails the file for it (docs/development.md).
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.context().close();

    // An account with a password is never asked for a Google sign-in: no dialog, no note.
    const withPassword = await signedInPage(running.browser, running.server, user.key, '/profile?reauth=delete');
    await withPassword.getByTestId('account-summary').waitFor();
    await withPassword.waitForURL(reauthGone);
    assert.equal(await withPassword.getByRole('dialog').count(), 0);
    assert.equal(await withPassword.getByTestId('reauth-note').count(), 0);
    await withPassword.context().close();
  });
});

/** The logout call is sent without waiting for its answer: poll briefly until the server agrees. */
async function waitForStatus(call: () => Promise<{ status: number }>, status: number, message: string): Promise<void> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const answer = await call();
    if (answer.status === status) return;
    if (Date.now() > deadline) assert.equal(answer.status, status, message);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
