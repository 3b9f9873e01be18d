/**
 * The admin console's keyboard and confirmations (docs/web.md "Admin console", docs/admin.md): the
 * sidebar is a vertical tablist (one Tab stop, Up/Down, Home/End), a refused action shows the
 * server's sentence, an import that overwrites is confirmed before anything is sent.
 * Run after `npm run build -w @bt/web`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { useAdminConsole } from './admin-console-setup.js';

const { seeded, adminApi, adminPage } = useAdminConsole(async () => undefined);

const TABS = ['users', 'history', 'stats', 'backtests', 'strategies', 'disk', 'maintenance'];

/** The focused element's test id, and the tab the address names. */
async function where(page: Page): Promise<[string | null, string | null]> {
  const focused = await page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('data-testid') ?? null);
  return [focused, new URL(page.url()).searchParams.get('tab')];
}

describe('the admin console from the keyboard', () => {
  it('the sidebar tabs move with Up, Down, Home and End, as one Tab stop, and each names its panel', async () => {
    const page = await adminPage('users');
    const list = page.getByRole('tablist', { name: 'Onglets d’administration' });
    assert.equal(await list.getAttribute('aria-orientation'), 'vertical');
    assert.equal(await list.getByRole('tab').count(), TABS.length, 'the tabs belong to the tablist');
    await page.getByTestId('admin-tab-users').focus();
    await page.keyboard.press('ArrowDown');
    await page.waitForURL((url) => url.searchParams.get('tab') === 'history');
    assert.deepEqual(await where(page), ['admin-tab-history', 'history']);
    await page.getByTestId('admin-history').waitFor();
    assert.equal(await page.getByTestId('admin-tab-history').getAttribute('aria-selected'), 'true');
    assert.equal(await page.getByRole('tabpanel').getAttribute('aria-labelledby'), 'admin-tab-history');
    // One Tab stop: only the selected tab is in the Tab order.
    const stops = await page.getByRole('tab').evaluateAll((tabs) => tabs.map((t) => (t as any).tabIndex as number));
    assert.deepEqual(stops, TABS.map((t) => (t === 'history' ? 0 : -1)));
    await page.keyboard.press('End');
    await page.waitForURL((url) => url.searchParams.get('tab') === 'maintenance');
    assert.deepEqual(await where(page), ['admin-tab-maintenance', 'maintenance']);
    await page.keyboard.press('ArrowDown');
    await page.waitForURL((url) => url.searchParams.get('tab') === 'users');
    assert.deepEqual(await where(page), ['admin-tab-users', 'users'], 'from the last to the first');
    await page.keyboard.press('ArrowUp');
    await page.waitForURL((url) => url.searchParams.get('tab') === 'maintenance');
    await page.keyboard.press('Home');
    await page.waitForURL((url) => url.searchParams.get('tab') === 'users');
    assert.deepEqual(await where(page), ['admin-tab-users', 'users']);
    // Left and Right are not the column's keys: nothing moves.
    await page.keyboard.press('ArrowRight');
    assert.deepEqual(await where(page), ['admin-tab-users', 'users']);
    // Tab leaves the tablist for the panel, not for the next tab.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('role')), null);
    assert.ok(!TABS.map((t) => `admin-tab-${t}`).includes((await where(page))[0] ?? ''));
    await page.context().close();
  });

  it('a refused credit removal shows the server\'s sentence', async () => {
    const balance = (await adminApi('GET', `/api/admin/user_history/${seeded.bruno.id}`)).body.user.credits as number;
    if (balance > 0) assert.equal((await adminApi('POST', '/api/admin/remove_credit', { user_id: seeded.bruno.id, amount: balance })).status, 200);
    const page = await adminPage('users');
    const row = page.locator(`[data-testid=user-row][data-user-id="${seeded.bruno.id}"]`);
    await row.getByTestId('user-remove-credit').click();
    await page.getByTestId('admin-users').getByRole('alert').getByText('Impossible de retirer 1 crédit(s) : le solde est de 0 (il ne descend jamais sous zéro).').waitFor();
    await page.context().close();
  });

  it('an import that overwrites is confirmed first: cancelled, nothing is sent; confirmed, it is', async () => {
    const page = await adminPage('maintenance');
    let sent = 0;
    await page.route('**/api/admin/maintenance/import-output', async (route) => {
      sent++;
      await route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ status: 'success', target_month: '2019-02', mode: 'overwrite', dry_run: false, added: [], skipped: [], overwritten: [{ file: 'EURUSD_H1_2019-02.csv', symbol: 'EURUSD', timeframe: 'H1', month: '2019-02', rows: 480, path: 'EURUSD/H1/EURUSD_H1_2019-02.csv' }], errors: [], counts: { added: 0, skipped: 0, overwritten: 1, errors: 0 } }),
      });
    });
    const form = page.getByTestId('maintenance-import');
    await form.getByTestId('import-url').fill('https://data.example.com/output.zip');
    await form.getByTestId('import-mode').selectOption('overwrite');
    // A dry run of an overwrite writes nothing: no question.
    await form.getByTestId('import-submit').click();
    await form.getByTestId('import-result').waitFor();
    assert.equal(sent, 1);
    await form.getByTestId('import-dry-run').uncheck();
    await form.getByTestId('import-submit').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Remplacer les mois déjà présents ?').waitFor();
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(sent, 1, 'cancelled: nothing sent');
    await form.getByTestId('import-submit').click();
    await page.getByTestId('confirm-action').click();
    await form.getByTestId('import-line').getByText('remplacé', { exact: true }).waitFor();
    assert.equal(sent, 2);
    await page.context().close();
  });
});
