/**
 * The admin console's Users and History tabs (docs/web.md "Admin console") in Chromium against the
 * real bt server: Alice's Stripe purchase and backtest through the API, and 250 more accounts
 * with a ledger line each written into the server's SQLite file, so both lists take several pages.
 * The list is the server's, in the server's order, a page at a time; each action changes the
 * server's state and the screen shows it; each confirmation can be cancelled.
 * Run after `npm run build -w @bt/web`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page, Request } from 'playwright-core';
import { cancelThenConfirm, nb, seedAccounts, useAdminConsole } from './admin-console-setup.js';
import { api, runBacktest, shot, type TestUser } from './work-area-support.js';

const MORE_ACCOUNTS = 250;

const { running, seeded, adminApi, adminPage } = useAdminConsole(async ({ running: { server }, seeded, dbFile }) => {
  await runBacktest(server, seeded.alice.key, { sl_pips: 10 });
  await seedAccounts(dbFile, MORE_ACCOUNTS);
});

const rowOf = (page: Page, user: TestUser) => page.locator(`[data-testid=user-row][data-user-id="${user.id}"]`);
const rowCount = (page: Page, testId: string, n: number) =>
  page.waitForFunction(([id, count]) => (globalThis as any).document.querySelectorAll(`[data-testid=${id}]`).length === count, [testId, n] as const);
/** The next call to an admin route, with its query. */
const nextCall = (page: Page, route: string, match: (query: URLSearchParams) => boolean = () => true) =>
  page.waitForRequest((r: Request) => new URL(r.url()).pathname === `/api/admin/${route}` && match(new URL(r.url()).searchParams)).then((r) => new URL(r.url()).searchParams);
const pageOf = (query: URLSearchParams) => [query.get('sort'), query.get('limit'), query.get('offset')];
const creditsShown = async (page: Page) => (await page.getByTestId('user-credits').allInnerTexts()).map((t) => Number(nb(t).replace(/\s/g, '')));

describe('the admin console /admin: users and history', () => {
  it('users: 100 then more, search, +1 / -1 credit, history, sorted by the server, delete after a cancelled confirmation', async () => {
    const total = (await adminApi('GET', '/api/admin/get_users')).body.total as number;
    assert.equal(total, MORE_ACCOUNTS + 4, 'the admin, Alice, Bruno, Carla and the seeded accounts');
    const page = await adminPage('users');
    assert.equal(await page.getByTestId('admin-tab-users').getAttribute('aria-selected'), 'true');
    await rowCount(page, 'user-row', 100);
    assert.equal(nb(await page.getByTestId('users-count').innerText()), `100 sur ${total} compte(s)`);
    assert.equal(await rowOf(page, seeded.alice).count(), 0, 'the 100 newest accounts: Alice is older');
    // "More" asks for the next page only, in the same order.
    let asked = nextCall(page, 'get_users');
    await page.getByTestId('users-more').click();
    assert.deepEqual(pageOf(await asked), ['newest', '100', '100']);
    await rowCount(page, 'user-row', 200);
    assert.equal(nb(await page.getByTestId('users-count').innerText()), `200 sur ${total} compte(s)`);
    assert.equal(await page.getByTestId('users-more').innerText(), `Afficher ${total - 200} de plus`);

    await page.getByTestId('users-search').fill(seeded.alice.username);
    await rowCount(page, 'user-row', 1);
    assert.equal(nb(await page.getByTestId('users-count').innerText()), '1 sur 1 compte(s)');
    assert.equal(await page.getByTestId('users-more').count(), 0);
    const alice = rowOf(page, seeded.alice);
    const before = (await api(running.server, 'GET', '/api/me', { key: seeded.alice.key })).body.credits as number;
    assert.equal(await alice.getByTestId('user-credits').innerText(), String(before));
    await alice.getByTestId('user-add-credit').click();
    await alice.getByTestId('user-credits').getByText(String(before + 1), { exact: true }).waitFor();
    assert.equal((await api(running.server, 'GET', '/api/me', { key: seeded.alice.key })).body.credits, before + 1);
    await alice.getByTestId('user-remove-credit').click();
    await alice.getByTestId('user-credits').getByText(String(before), { exact: true }).waitFor();
    assert.equal((await api(running.server, 'GET', '/api/me', { key: seeded.alice.key })).body.credits, before);
    assert.match(await alice.innerText(), /Non/, 'the blocked flag is shown');

    await alice.getByTestId('user-history').click();
    const history = page.getByRole('dialog');
    await history.getByTestId('user-history-table').waitFor();
    const lines = await history.getByTestId('history-line').allInnerTexts();
    assert.ok(lines.some((l) => /Pack 12 crédits[^]*10,00\s€[^]*\+12/.test(nb(l))), `the purchase in: ${lines.join(' | ')}`);
    assert.ok(lines.some((l) => /backtest[^]*-2/.test(l)), 'a backtest reads -2');
    await history.getByRole('button', { name: 'Fermer' }).click();

    // The sort is the server's: it orders every account, so the richest (Alice, older than the
    // first page of the newest) comes first.
    asked = nextCall(page, 'get_users', (q) => q.get('sort') === 'credits' && !q.has('q'));
    await page.getByTestId('users-search').fill('');
    await page.getByTestId('users-sort').selectOption('credits');
    assert.deepEqual(pageOf(await asked), ['credits', '100', '0']);
    await page.waitForFunction((id) => (globalThis as any).document.querySelector('[data-testid=user-row]')?.getAttribute('data-user-id') === String(id), seeded.alice.id);
    await rowCount(page, 'user-row', 100);
    const credits = await creditsShown(page);
    assert.deepEqual(credits, [...credits].sort((a, b) => b - a), 'sorted by credits');
    asked = nextCall(page, 'get_users');
    await page.getByTestId('users-more').click();
    assert.deepEqual(pageOf(await asked), ['credits', '100', '100']);
    await rowCount(page, 'user-row', 200);
    const more = await creditsShown(page);
    assert.deepEqual(more, [...more].sort((a, b) => b - a), 'the next page follows in the same order');

    // A deletion starts the list again from its first page.
    const carla = rowOf(page, seeded.carla);
    await cancelThenConfirm(
      page,
      () => carla.getByTestId('user-delete').click(),
      async () => {
        const users = (await adminApi('GET', '/api/admin/get_users')).body.users as { id: number }[];
        assert.ok(users.some((u) => u.id === seeded.carla.id), 'cancelled: still there');
      },
    );
    await carla.waitFor({ state: 'detached' });
    await rowCount(page, 'user-row', 100);
    assert.equal(nb(await page.getByTestId('users-count').innerText()), `100 sur ${total - 1} compte(s)`);
    const users = (await adminApi('GET', '/api/admin/get_users')).body.users as { id: number }[];
    assert.ok(!users.some((u) => u.id === seeded.carla.id), 'deleted on the server');
    await shot(page, 'admin-01-users-1440');
    await page.context().close();
  });

  it('history: 5 lines, then all in pages of 200 with the server\'s count; the purchase-history reset after a cancelled confirmation; credits untouched', async () => {
    const page = await adminPage('history');
    const total = (await adminApi('GET', '/api/admin/global_history')).body.total as number;
    assert.ok(total > 200 && total <= 400, `${total} lines: two pages`);
    await page.getByTestId('global-history-table').waitFor();
    assert.equal(await page.getByTestId('history-line').count(), 5);
    assert.equal(nb(await page.getByTestId('history-total').innerText()), `5 sur ${total} ligne(s)`);
    assert.equal(await page.getByTestId('history-more').count(), 0, 'no more button under the preview');
    await page.getByTestId('history-toggle').click();
    assert.equal(await page.getByTestId('history-line').count(), 200);
    assert.equal(nb(await page.getByTestId('history-total').innerText()), `200 sur ${total} ligne(s)`);
    const asked = nextCall(page, 'global_history');
    await page.getByTestId('history-more').click();
    const query = await asked;
    assert.deepEqual([query.get('limit'), query.get('offset')], ['200', '200']);
    await rowCount(page, 'history-line', total);
    assert.equal(nb(await page.getByTestId('history-total').innerText()), `${total} sur ${total} ligne(s)`);
    assert.equal(await page.getByTestId('history-more').count(), 0);
    const credits = (await api(running.server, 'GET', '/api/me', { key: seeded.alice.key })).body.credits;
    await cancelThenConfirm(page, () => page.getByTestId('history-reset').click(), async () => assert.equal((await adminApi('GET', '/api/admin/global_history')).body.total, total));
    await page.getByTestId('admin-empty').getByText('Aucune entrée.').waitFor();
    assert.equal(nb(await page.getByTestId('history-total').innerText()), '0 sur 0 ligne(s)');
    assert.equal((await adminApi('GET', '/api/admin/global_history')).body.total, 0);
    assert.equal((await api(running.server, 'GET', '/api/me', { key: seeded.alice.key })).body.credits, credits, 'credits untouched');
    await page.context().close();
  });
});
