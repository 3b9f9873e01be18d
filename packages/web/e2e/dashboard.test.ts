/**
 * /dashboard against the real bt server (docs/product.md §2.2): empty states, strategy cards (Détails,
 * rename, note, Utiliser, delete), backtest cards (results overlay, workbook link, delete with its
 * dialog), failure messages, and 'Mes CSV' with its free re-download. Every change is checked
 * after a reload and on the server. Run: `npm run build -w @bt/web`, then
 * `npx tsx --conditions=@bt/source --test e2e/dashboard.test.ts`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './browser.js';
import { startBtServer, type RunningServer } from './bt-server.js';
import { BREAKOUT_PY, api, newPage, signedInContext } from './dashboard-setup.js';
import { newUser, repoDir, shot, type TestUser } from './work-area-support.js';


let browser: Browser;
let server: RunningServer;
let user: TestUser;
/** User A's backtest and import, run on the server while the first test drives the browser. */
let setup: Promise<[Record<string, unknown>, Record<string, unknown>]>;

before(async () => {
  [server, browser] = await Promise.all([startBtServer(repoDir), launchBrowser()]);
  user = await newUser(server, { verified: true, first: 'dash', last: 'Test' });
  const calls = api(server.url, user);
  setup = Promise.all([calls.runBacktest(), calls.importStrategy('breakout.py', BREAKOUT_PY, 'première note')]);
  setup.catch(() => {});
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function openDashboard(page: Page, query = ''): Promise<void> {
  await page.goto(`${server.url}/dashboard${query}`);
  await page.getByRole('tab', { name: 'Mon dashboard' }).waitFor();
}

describe('dashboard against the bt server', () => {
  it("a new user sees every empty state; 'Mes CSV' then lists a bought file, whose re-download costs nothing", async () => {
    const buyer = await newUser(server, { verified: true, first: 'csv', last: 'Test' });
    const calls = api(server.url, buyer);
    const context = await signedInContext(browser, buyer);
    const page = await newPage(context);
    await openDashboard(page);
    assert.equal(await page.getByRole('tab', { name: 'Mon dashboard' }).getAttribute('aria-selected'), 'true');
    await page.getByTestId('strategies-empty').getByText('Aucune stratégie pour le moment.').waitFor();
    await page.getByTestId('backtests-empty').getByText("Aucun backtest pour l'instant.").waitFor();
    assert.equal(await page.getByTestId('backtests-empty').getByRole('link', { name: 'Backtest' }).getAttribute('href'), '/backtest');
    assert.equal(await page.getByTestId('pins-wall').count(), 0, "'Mes épingles' is collapsed by default");
    await page.getByTestId('pins-toggle').click();
    await page.getByText('Aucune épingle pour le moment.').waitFor();
    assert.equal(await page.getByTestId('pins-toggle').innerText(), 'Masquer');
    await shot(page, 'dash-01-empty');
    await page.getByRole('tab', { name: 'Mes CSV' }).click();
    await page.waitForURL(/\/dashboard\?tab=csv$/);
    await page.getByTestId('csvs-empty').getByText("Aucun CSV téléchargé pour l'instant.").waitFor();
    assert.equal(await page.getByTestId('csvs-empty').getByRole('link', { name: 'CSV Shop' }).getAttribute('href'), '/csv-shop');

    const library = (await calls.get('/api/list_csv_library?symbol=EURUSD&timeframe=H1')).files as Record<string, unknown>[];
    assert.equal(await calls.buyCsv(String(library[0].path)), '1');
    const credits = (await calls.get('/api/me')).credits;
    await page.reload();
    const item = page.getByTestId('csv-item');
    await item.getByText(String(library[0].name)).waitFor();
    await shot(page, 'dash-05-mes-csv');
    const download = page.waitForEvent('download');
    await item.getByTestId('csv-download').click();
    const file = await (await download).path();
    assert.match(readFileSync(file!, 'utf8'), /^Datetime,Open,High,Low,Close,Volume/);
    assert.equal((await calls.get('/api/me')).credits, credits, 'the re-download is free');
    // The month reads in French beside the pair ('janvier 2023'), not as the API's '2023-01'.
    assert.match(await item.innerText(), new RegExp(`EURUSD · H1 · \\p{L}+ \\d{4}`, 'u'));
    assert.doesNotMatch(await item.innerText(), / · \d{4}-\d{2}\b/);

    // A file the server no longer has (404 with its detail): a French toast, nothing saved.
    await page.route('**/api/download_owned_csv_by_path/**', (route) => route.fulfill({ status: 404, json: { detail: 'Fichier introuvable.' } }));
    let saved = false;
    page.on('download', () => (saved = true));
    await item.getByTestId('csv-download').click();
    await page.getByTestId('toast').getByText('Téléchargement impossible. Fichier introuvable.').waitFor();
    await page.waitForTimeout(300);
    assert.equal(saved, false, 'no error body saved as a .csv');
    await page.unroute('**/api/download_owned_csv_by_path/**');
    await context.close();
  });

  it('shows a backtest and an imported strategy; rename, note and Utiliser; failures show their messages', async () => {
    const calls = api(server.url, user);
    const [run, imported] = await setup;
    const strategyId = String((imported.strategy as Record<string, unknown>).id);

    const context = await signedInContext(browser, user);
    const page = await newPage(context);
    await openDashboard(page);
    const card = page.getByTestId('strategy-card');
    await card.getByTestId('strategy-name').getByText('Cassure simple').waitFor();
    assert.equal(await card.getByTestId('strategy-note').innerText(), 'première note');
    assert.equal(await card.getByRole('link', { name: 'Utiliser' }).getAttribute('href'), `/backtest?strategy=${strategyId}`);
    const backtest = page.getByTestId('backtest-card');
    await backtest.waitFor();
    assert.equal(await backtest.getAttribute('data-folder'), run.folder);
    assert.match(await backtest.innerText(), /EURUSD\s+M15/);
    assert.match(await backtest.getByTestId('backtest-winrate').innerText(), /^\d+,\d{2}\u202f%$/);
    const xlsx = new URL((await backtest.getByTestId('xlsx-download').getAttribute('href'))!, server.url);
    assert.equal(xlsx.pathname, `/api/download/${run.xlsx_filename}`);
    const workbook = await page.request.get(xlsx.toString());
    assert.equal((await workbook.body()).subarray(0, 2).toString(), 'PK');
    await shot(page, 'dash-02-cards');

    // Détails: the 'Commentaire stratégie' modal.
    await card.getByRole('button', { name: 'Détails' }).click();
    const details = page.getByRole('dialog', { name: 'Commentaire stratégie' });
    await details.getByText('Achat quand la clôture dépasse les N clôtures précédentes.').waitFor();
    await details.getByText('première note').waitFor();
    await details.getByRole('button', { name: 'Fermer' }).click();

    // A refused rename shows 'Renommage impossible.' and keeps the name.
    await page.route('**/api/user/strategies/*/rename', (route) => route.fulfill({ status: 500, json: { detail: 'Erreur serveur' } }));
    await card.getByRole('button', { name: 'Options' }).click();
    await page.getByRole('menuitem', { name: 'Renommer' }).click();
    await card.getByTestId('rename-input').fill('Nom refusé');
    await card.getByTestId('rename-input').press('Enter');
    await page.getByTestId('strategies-error').getByText('Renommage impossible.').waitFor();
    assert.equal(await card.getByTestId('strategy-name').innerText(), 'Cassure simple');
    await page.unroute('**/api/user/strategies/*/rename');

    // Rename with the menu's 'Valider le renommage'; an unchanged name is a no-op.
    await card.getByRole('button', { name: 'Options' }).click();
    await page.getByRole('menuitem', { name: 'Renommer' }).click();
    await card.getByTestId('rename-input').fill('Cassure H1 renommée');
    await card.getByRole('button', { name: 'Options' }).click();
    await page.getByRole('menuitem', { name: 'Valider le renommage' }).click();
    await card.getByTestId('strategy-name').getByText('Cassure H1 renommée').waitFor();
    assert.equal(await page.getByTestId('strategies-error').count(), 0);

    // The menu by the keyboard: Escape closes it with the focus back on its button, not lost.
    const focused = () => page.evaluate(() => (globalThis as any).document.activeElement?.textContent?.trim());
    await card.getByRole('button', { name: 'Options' }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'Renommer');
    await page.keyboard.press('Escape');
    assert.equal(await page.getByRole('menuitem').count(), 0);
    assert.equal(await focused(), 'Options');

    // Note.
    await card.getByRole('button', { name: 'Options' }).click();
    await page.getByRole('menuitem', { name: 'Éditer la note' }).click();
    // Typed key by key into whatever has focus: the dialog must keep it in the field.
    await page.getByTestId('note-input').fill('');
    await page.getByTestId('note-input').click();
    await page.keyboard.type('Note modifiée : marche mieux le matin.');
    await page.getByTestId('save-note').click();
    await card.getByTestId('strategy-note').getByText('Note modifiée : marche mieux le matin.').waitFor();
    assert.equal(await focused(), 'Options', 'the dialog opened from the menu gives the focus back to its button');

    // Download of the .py.
    await card.getByRole('button', { name: 'Options' }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'Télécharger' }).click();
    const file = await (await download).path();
    assert.match(readFileSync(file!, 'utf8'), /def detect_breakout/);

    // Both survive a reload and are on the server.
    await page.reload();
    await card.getByTestId('strategy-name').getByText('Cassure H1 renommée').waitFor();
    assert.equal(await card.getByTestId('strategy-note').innerText(), 'Note modifiée : marche mieux le matin.');
    const listed = ((await calls.get('/api/user/strategies')).items as Record<string, unknown>[])[0];
    assert.equal(listed.display_name, 'Cassure H1 renommée');
    assert.equal(listed.comment_user, 'Note modifiée : marche mieux le matin.');

    // Voir résultats: the results overlay on the user's workbook.
    await backtest.getByRole('button', { name: 'Voir résultats' }).click();
    await page.getByRole('tab', { name: 'Résumé global', selected: true }).waitFor();
    await page.getByTestId('sheet-table').getByText('Winrate TP1').waitFor();
    await shot(page, 'dash-03-results-overlay', false);
    await page.keyboard.press('Escape');

    // A failed list shows its message.
    // The list's pages carry their order and place in the query (sort, limit, offset).
    const list = /\/api\/user\/backtests(\?|$)/;
    await page.route(list, (route) => route.fulfill({ status: 500, json: { detail: 'Erreur serveur' } }));
    await page.reload();
    await page.getByText('Erreur de chargement des backtests').waitFor();
    await page.unroute(list);
    await context.close();
  });

  it('the workbook link saves the workbook; a refused or cut download says so in French and saves nothing', async () => {
    const [run] = await setup;
    const context = await signedInContext(browser, user);
    const page = await newPage(context);
    await openDashboard(page);
    const link = page.getByTestId('backtest-card').getByTestId('xlsx-download');
    await link.waitFor();
    // The spec's address is kept on the link (GET /api/download/{file}?folder&apiKey).
    const href = new URL((await link.getAttribute('href'))!, server.url);
    assert.equal(href.pathname, `/api/download/${run.xlsx_filename}`);
    assert.ok(href.searchParams.get('apiKey'));
    const saved: string[] = [];
    page.on('download', (download) => void saved.push(download.suggestedFilename()));

    await page.route('**/api/download/**', (route) => route.fulfill({ status: 404, json: { detail: 'Dossier inconnu' } }));
    await link.click();
    await page.getByText('Téléchargement impossible. Dossier inconnu').waitFor();
    await page.unroute('**/api/download/**');
    await page.route('**/api/download/**', (route) => route.abort('internetdisconnected'));
    await link.click();
    await page.getByText('Téléchargement impossible. Erreur réseau.').waitFor();
    await page.unroute('**/api/download/**');
    await shot(page, 'dash-02b-xlsx-failed');
    assert.deepEqual(saved, [], 'no error body saved as a .xlsx');

    const download = page.waitForEvent('download');
    await link.click();
    const file = await download;
    assert.equal(file.suggestedFilename(), run.xlsx_filename);
    assert.equal(readFileSync((await file.path())!).subarray(0, 2).toString(), 'PK', 'the workbook itself');
    await context.close();
  });

  it('deletes a backtest (dialog, refusal, success) and a strategy; both stay gone after a reload', async () => {
    const calls = api(server.url, user);
    const context = await signedInContext(browser, user);
    const page = await newPage(context);
    await openDashboard(page);
    const backtest = page.getByTestId('backtest-card');
    await backtest.waitFor();

    await backtest.getByRole('button', { name: 'Supprimer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Supprimer ce backtest ?' });
    await dialog.getByText('Cette action est irréversible.').waitFor();
    await shot(page, 'dash-04-delete-dialog', false);
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    assert.equal(await backtest.count(), 1);

    await page.route('**/api/user/backtests/delete/*', (route) => route.fulfill({ status: 404, json: { detail: 'Dossier inconnu' } }));
    await backtest.getByRole('button', { name: 'Supprimer' }).click();
    await page.getByTestId('confirm-action').click();
    await page.getByTestId('backtests-error').getByText('Suppression impossible : Dossier inconnu').waitFor();
    assert.equal(await backtest.count(), 1);
    await page.unroute('**/api/user/backtests/delete/*');

    await backtest.getByRole('button', { name: 'Supprimer' }).click();
    await page.getByTestId('confirm-action').click();
    await page.getByTestId('backtests-empty').waitFor();

    const card = page.getByTestId('strategy-card');
    await card.getByRole('button', { name: 'Options' }).click();
    await page.getByRole('menuitem', { name: 'Supprimer' }).click();
    await page.getByTestId('confirm-action').click();
    await page.getByTestId('strategies-empty').waitFor();

    await page.reload();
    await page.getByTestId('backtests-empty').waitFor();
    await page.getByTestId('strategies-empty').waitFor();
    assert.deepEqual((await calls.get('/api/user/backtests')).items, []);
    assert.deepEqual((await calls.get('/api/user/strategies')).items, []);
    await context.close();
  });



  it("a trader's many backtests come 9 at a time in the order the server sorts; a deletion skips none of the next page", async () => {
    const trader = await newUser(server, { verified: true, credits: 22, first: 'many', last: 'Runs' });
    const calls = api(server.url, trader);
    const strategies = ['ob_pullback_pure', 'ob_pullback_gap', 'fvg_pullback_multi', 'fvg_impulsive', 'englobante_entry', 'ob_pullback_pure_rsi', 'fvg_pullback_multi_ema', 'fvg_impulsive_rsi', 'englobante_entry_ema', 'ob_pullback_gap_rsi', 'fvg_pullback_tendance_ema'];
    for (const strategy of strategies) assert.ok((await calls.runBacktest({ strategy })).folder, strategy);
    const order = async (sort: string) => ((await calls.get(`/api/user/backtests?sort=${sort}&limit=20`)).items as Array<{ folder: string }>).map((i) => i.folder);
    const folders = () => page.getByTestId('backtest-card').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-folder')));

    const context = await signedInContext(browser, trader);
    const page = await newPage(context);
    await openDashboard(page);
    await page.getByTestId('backtest-card').nth(8).waitFor();
    const byWinrate = await order('winrate-desc');
    assert.deepEqual(await folders(), byWinrate.slice(0, 9), 'the first page, best win rate first');
    await page.getByTestId('backtests-more').click();
    await page.getByTestId('backtest-card').nth(10).waitFor();
    assert.deepEqual(await folders(), byWinrate);
    assert.equal(await page.getByTestId('backtests-more').count(), 0, 'nothing more to ask');

    await page.getByTestId('backtests-sort').selectOption('trades-asc');
    const byTrades = await order('trades-asc');
    await page.getByTestId('backtest-card').first().and(page.locator(`[data-folder="${byTrades[0]}"]`)).waitFor();
    assert.deepEqual(await folders(), byTrades.slice(0, 9), 'the sort asked the server for a first page');

    await page.getByTestId('backtest-card').first().getByRole('button', { name: 'Supprimer' }).click();
    await page.getByTestId('confirm-action').click();
    await page.getByTestId('backtest-card').nth(8).waitFor({ state: 'detached' });
    await page.getByTestId('backtests-more').click();
    await page.getByTestId('backtest-card').nth(9).waitFor();
    assert.deepEqual(await folders(), byTrades.slice(1), 'the run that moved up into the first page is not skipped');
    await context.close();
  });
});
