/**
 * The admin console's keyboard, confirmations and long lists (docs/web.md "Admin console",
 * docs/admin.md): the sidebar is a vertical tablist (one Tab stop, Up/Down, Home/End), a refused
 * action shows the server's sentence, an import that overwrites is confirmed before anything is
 * sent, the re-creation counters, the billing files and the statistics' details come a page at a
 * time with their count.
 * Run after `npm run build -w @bt/web`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { nb, seedAccounts, seedRecreations, useAdminConsole } from './admin-console-setup.js';

const COUNTERS = 130;
const ACCOUNTS = 130;
const { seeded, adminApi, adminPage } = useAdminConsole(async ({ dbFile }) => {
  await seedRecreations(dbFile, COUNTERS);
  await seedAccounts(dbFile, ACCOUNTS);
});

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
    await page.getByTestId('users-search').fill(seeded.bruno.email);
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

  it('re-creation counters and billing files: 100, then the rest, with the count', async () => {
    const page = await adminPage('maintenance');
    const recreate = page.getByTestId('maintenance-recreate');
    await recreate.getByTestId('recreate-total').waitFor();
    assert.equal(await recreate.getByTestId('recreate-row').count(), 100);
    assert.equal(nb(await recreate.getByTestId('recreate-total').innerText()), `100 sur ${COUNTERS} adresse(s)`);
    await recreate.getByTestId('recreate-more').click();
    await page.waitForFunction((n) => (globalThis as any).document.querySelectorAll('[data-testid=recreate-row]').length === n, COUNTERS);
    assert.equal(await recreate.getByTestId('recreate-more').count(), 0, 'no more to ask for');
    await page.context().close();

    // 250 billing files, answered by the route as the server pages them (its own test: server/test/admin-maintenance.test.ts).
    const files = Array.from({ length: 250 }, (_, i) => ({ rel: `2026/F-2026-${String(250 - i).padStart(6, '0')}.pdf`, name: `F-2026-${String(250 - i).padStart(6, '0')}.pdf`, bytes: 1000, mtime: new Date(Date.UTC(2026, 0, 1, 0, 250 - i)).toISOString() }));
    const asked: string[] = [];
    const billing = await adminPage('users');
    await billing.route('**/api/admin/factures_list*', async (route) => {
      const query = new URL(route.request().url()).searchParams;
      const limit = Number(query.get('limit'));
      const offset = Number(query.get('offset'));
      asked.push(`${limit}@${offset}`);
      await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ items: files.slice(offset, offset + limit), total: files.length, limit, offset }) });
    });
    await billing.route('**/api/admin/factures_info*', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ count: files.length, bytes: files.length * 1000 }) }));
    await billing.getByTestId('admin-tab-maintenance').click();
    const invoices = billing.getByTestId('maintenance-invoices');
    await invoices.getByTestId('invoices-total').waitFor();
    assert.equal(await invoices.getByTestId('invoice-row').count(), 100);
    assert.equal(nb(await invoices.getByTestId('invoices-total').innerText()), '100 sur 250 fichier(s)');
    await invoices.getByTestId('invoices-more').click();
    await billing.waitForFunction(() => (globalThis as any).document.querySelectorAll('[data-testid=invoice-row]').length === 200);
    await invoices.getByTestId('invoices-more').click();
    await billing.waitForFunction(() => (globalThis as any).document.querySelectorAll('[data-testid=invoice-row]').length === 250);
    assert.deepEqual(asked, ['100@0', '100@100', '100@200']);
    assert.equal(await invoices.getByTestId('invoices-more').count(), 0);
    await billing.context().close();
  });

  it('the ledger and the KPI details: 100 rows, then the rest, with the count', async () => {
    const page = await adminPage('stats');
    await page.getByTestId('ledger-select').selectOption('users_all');
    const ledger = page.getByTestId('ledger-table');
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('[data-testid=ledger-table] [data-testid=details-row]').length === 100);
    const total = (await adminApi('GET', '/api/admin/metrics/details/users_all?range=all&limit=1')).body.total as number;
    assert.ok(total > 100 && total <= 200, String(total));
    assert.equal(nb(await ledger.locator('p').innerText()), `100 sur ${total} ligne(s)`);
    await page.getByTestId('ledger-table-more').click();
    await page.waitForFunction((n) => (globalThis as any).document.querySelectorAll('[data-testid=ledger-table] [data-testid=details-row]').length === n, total);
    assert.equal(await page.getByTestId('ledger-table-more').count(), 0);
    const ids = await ledger.locator('[data-testid=details-row] td:nth-child(2)').allInnerTexts();
    assert.equal(new Set(ids).size, ids.length, 'no row twice');
    await page.context().close();
  });
});
