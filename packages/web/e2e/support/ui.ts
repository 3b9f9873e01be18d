/** Steps several flows share, done the way a user does them. */
import type { Page } from 'playwright-core';

/** Signs in through /login?next=… and waits for the app to land on `next`. */
export async function signIn(page: Page, baseUrl: string, identifier: string, password: string, next: string): Promise<void> {
  await page.goto(`${baseUrl}/login?next=${encodeURIComponent(next)}`);
  const form = page.getByTestId('login-form');
  await form.getByLabel('E-mail ou nom d’utilisateur').fill(identifier);
  await form.getByLabel('Mot de passe').fill(password);
  await form.getByRole('button', { name: 'Se connecter' }).click();
  await page.waitForURL((url) => url.pathname + url.search === next);
}

/** The number the credits badge of the top bar shows (null for '—'). */
export async function creditsShown(page: Page): Promise<number | null> {
  const text = (await page.getByTestId('credits-badge').locator('strong').innerText()).trim();
  return /^\d+$/.test(text) ? Number(text) : null;
}
