/**
 * The CSV shop (/csv-shop, docs/product.md §2.2, §2.6, §2.8, §2.9) in Chromium against the real bt server and its
 * seeded library: visitor prompt, filters, paging, the column popover, a 1-credit download with
 * the badge updated, the free re-download (browser, API and ledger), extraction and its messages.
 * Run after `npm run build -w @bt/web`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { api, badgeCredits, credits, newUser, repoDir, shot, signedInPage, useServerAndBrowser } from './work-area-support.js';

const running = useServerAndBrowser();

const cards = (page: Page) => page.getByTestId('csv-card');

describe('CSV shop against the bt server', () => {
  it('a visitor browses, filters and pages the library, reads the columns, and gets the connection prompt', async () => {
    const page = await signedInPage(running.browser, running.server, null, '/csv-shop');
    await cards(page).first().waitFor();
    assert.equal(await cards(page).count(), 16, 'first page: 16 files');
    await page.getByTestId('csv-show-more').click();
    assert.equal(await cards(page).count(), 32, "'show more' adds 16");

    await page.getByTestId('filter-symbol').selectOption('EURUSD');
    await page.getByTestId('filter-timeframe').selectOption('M15');
    assert.equal(await cards(page).count(), 13, 'EURUSD M15: the 13 months of the seeded data');
    const months = await page.getByTestId('filter-month').locator('option').allInnerTexts();
    assert.equal(months[0], 'Tous');
    assert.ok(months.includes('janvier 2023'));
    await page.getByTestId('filter-month').selectOption('2023-01');
    assert.equal(await cards(page).count(), 1);
    assert.equal(await cards(page).first().getAttribute('data-path'), 'EURUSD/M15/EURUSD_M15_2023-01.csv');
    assert.equal(await page.getByTestId('csv-show-more').count(), 0);

    await page.getByTestId('filter-symbol').selectOption('GBPJPY');
    await page.getByTestId('csv-empty').waitFor();
    assert.equal(await page.getByTestId('csv-empty').innerText(), 'Aucun fichier trouvé.');

    await page.getByTestId('csv-columns-toggle').click();
    await page.getByTestId('csv-columns').getByText('Datetime', { exact: true }).waitFor();
    assert.match(await page.getByTestId('csv-columns').innerText(), /Volume[\s\S]*RSI_14/);
    await shot(page, 'csv-shop-01-visitor-columns');
    await page.keyboard.press('Escape');
    assert.equal(await page.getByTestId('csv-columns').count(), 0);

    await page.getByTestId('filter-symbol').selectOption('ALL');
    await page.getByTestId('filter-timeframe').selectOption('ALL');
    await cards(page).first().getByTestId('csv-download').click();
    const prompt = page.getByRole('dialog', { name: 'Connexion requise' });
    await prompt.waitFor();
    assert.equal(await prompt.getByRole('link', { name: 'Créer un compte' }).getAttribute('href'), '/login?tab=register&next=%2Fcsv-shop');
    assert.equal(await prompt.getByRole('link', { name: 'Se connecter' }).getAttribute('href'), '/login?tab=login&next=%2Fcsv-shop');
    await prompt.getByRole('button', { name: 'Continuer en visiteur' }).click();
    await page.getByTestId('extract-submit').click();
    await page.getByRole('dialog', { name: 'Connexion requise' }).getByText('Inscrivez-vous pour lancer une extraction.').waitFor();
    assert.equal(await page.getByTestId('recent-extractions').count(), 0, 'no private section for visitors');

    // A month the data do not cover fully says so, with its candle count (fixtures/EURUSD.csv starts on 19 April 2017).
    await page.goto(`${running.server.url}/csv-shop?symbol=EURUSD`);
    await page.getByTestId('filter-timeframe').selectOption('H1');
    await page.getByTestId('filter-month').selectOption('2017-04');
    const april = cards(page).first();
    assert.equal(await april.locator('.badge-partial').innerText(), 'Partiel');
    assert.match(await april.getByTestId('csv-partial').innerText(), /^Mois partiel : du 19 avril au \d+ avril \([\d\s\u202f]+ bougies\)$/);
    await page.getByTestId('filter-month').selectOption('2017-05');
    assert.equal(await cards(page).first().getByTestId('csv-partial').count(), 0, 'a whole month has no flag');

    // The extraction fields line up: one control height, pair beside timeframe, start beside end.
    const boxes = await Promise.all(['extract-symbol', 'extract-timeframe', 'extract-start', 'extract-end'].map((id) => page.getByTestId(id).boundingBox()));
    const [pair, tf, start, end] = boxes.map((b) => b!);
    assert.ok(boxes.every((b) => Math.abs(b!.height - pair.height) < 1), `heights ${boxes.map((b) => b!.height)}`);
    assert.ok(Math.abs(pair.y - tf.y) < 1 && Math.abs(start.y - end.y) < 1 && start.y > pair.y, 'two rows');
    assert.ok(Math.abs(pair.x - start.x) < 1 && Math.abs(tf.x - end.x) < 1, 'two columns');
    await page.context().close();

    // 640 px and below: pages of 10.
    const narrow = await signedInPage(running.browser, running.server, null, '/csv-shop?symbol=EURUSD', { width: 375, height: 800 });
    await cards(narrow).first().waitFor();
    assert.equal(await narrow.getByTestId('filter-symbol').inputValue(), 'EURUSD', 'the symbol parameter preselects the pair');
    assert.equal(await cards(narrow).count(), 10);
    await narrow.getByTestId('csv-show-more').click();
    assert.equal(await cards(narrow).count(), 20);
    await shot(narrow, 'csv-shop-02-375px');
    await narrow.context().close();
  });

  it('a download costs 1 credit once; the re-download is free (badge, API and ledger)', async () => {
    const user = await newUser(running.server, { verified: true, credits: 1 });
    const path = 'EURUSD/M15/EURUSD_M15_2023-01.csv';
    const page = await signedInPage(running.browser, running.server, user.key, '/csv-shop?symbol=EURUSD');
    await page.getByTestId('credits-badge').getByText('3').waitFor();
    // A second tab of the same browser: its badge follows the purchase made in the first.
    const otherTab = await page.context().newPage();
    await otherTab.goto(`${running.server.url}/home`);
    await otherTab.getByTestId('credits-badge').getByText('3', { exact: true }).waitFor();
    await page.getByTestId('filter-timeframe').selectOption('M15');
    await page.getByTestId('filter-month').selectOption('2023-01');
    const card = page.locator(`[data-testid=csv-card][data-path="${path}"]`);
    assert.equal(await card.getByTestId('csv-download').innerText(), 'Télécharger · 1 crédit');

    const first = page.waitForEvent('download');
    await card.getByTestId('csv-download').click();
    const file = await first;
    assert.equal(file.suggestedFilename(), 'EURUSD_M15_2023-01.csv');
    assert.match(readFileSync((await file.path())!, 'utf8'), /^Datetime,Open,High,Low,Close,Volume/);
    await page.getByTestId('credits-badge').getByText('2', { exact: true }).waitFor();
    assert.equal(await card.getByTestId('csv-download').innerText(), 'Re-télécharger (gratuit)');
    await otherTab.getByTestId('credits-badge').getByText('2', { exact: true }).waitFor();
    await otherTab.close();

    const second = page.waitForEvent('download');
    await card.getByTestId('csv-download').click();
    await second;
    await page.getByTestId('csv-notice').getByText('re-téléchargement gratuit').waitFor();
    assert.equal(await badgeCredits(page), '2', 'the re-download costs nothing');
    await shot(page, 'csv-shop-03-downloaded');

    // After a reload the file still reads as bought.
    await page.reload();
    await page.getByTestId('filter-timeframe').selectOption('M15');
    await page.getByTestId('filter-month').selectOption('2023-01');
    assert.equal(await card.getByTestId('csv-download').innerText(), 'Re-télécharger (gratuit)');
    await page.context().close();

    // The API agrees: one charge in the ledger, both download routes free now, the file in 'Mes CSV'.
    const again = await api(running.server, 'GET', `/api/download_csv_by_path/${path}?token=${user.key}`);
    assert.deepEqual([again.status, again.headers.get('x-credit-charged')], [200, '0']);
    const owned = await api(running.server, 'GET', `/api/download_owned_csv_by_path/${path}?token=${user.key}`);
    assert.deepEqual([owned.status, owned.headers.get('x-credit-charged')], [200, '0']);
    assert.equal(await credits(running.server, user.key), 2);
    const me = await api(running.server, 'GET', '/api/me', { key: user.key });
    assert.equal(me.body.purchase_history.filter((e: { type: string }) => e.type === 'csvDownload').length, 1);
    const mine = await api(running.server, 'GET', '/api/user/csvs', { key: user.key });
    assert.deepEqual(mine.body.items.map((i: { path: string }) => i.path), [path]);
  });

  it('extraction: its checks, 1 credit, the private LIVE list; without credits the server’s message', async () => {
    const user = await newUser(running.server, { verified: true });
    const page = await signedInPage(running.browser, running.server, user.key, '/csv-shop');
    await page.getByTestId('credits-badge').getByText('2').waitFor();
    await page.getByTestId('recent-extractions').getByText('Aucune extraction pour l’instant.').waitFor();
    // A list that fails to load says so (its files are paid for), then reads again on the next visit.
    await page.route('**/api/my_recent_extractions?*', (route) => route.fulfill({ status: 500, json: { detail: 'Erreur serveur' } }));
    await page.reload();
    await page.getByTestId('recent-extractions').getByRole('alert').getByText('Erreur de chargement').waitFor();
    await page.unroute('**/api/my_recent_extractions?*');
    await page.reload();
    await page.getByTestId('recent-extractions').getByText('Aucune extraction pour l’instant.').waitFor();
    // The reloaded page's session read back before the form is used (a CI run under load clicked
    // the button and never saw its status, 2026-12-03; not seen alone in two runs).
    await page.getByTestId('credits-badge').getByText('2').waitFor();
    await page.getByTestId('extract-symbol').selectOption('EURUSD');
    await page.getByTestId('extract-timeframe').selectOption('M15');
    await page.getByTestId('extract-submit').click();
    assert.equal(await page.getByTestId('extract-status').innerText(), 'Renseigne paire, TF, dates.');
    await page.getByTestId('extract-start').fill('2023-01-05');
    await page.getByTestId('extract-end').fill('2023-01-02');
    await page.getByTestId('extract-submit').click();
    assert.equal(await page.getByTestId('extract-status').innerText(), 'La date de début doit être ≤ à la date de fin.');
    await page.getByTestId('extract-start').fill('2023-01-02');
    await page.getByTestId('extract-end').fill('2023-01-05');
    await page.getByTestId('extract-submit').click();
    await page.getByTestId('extract-status').getByText('Extraction prête.').waitFor();
    await page.getByTestId('credits-badge').getByText('1', { exact: true }).waitFor();
    const recent = page.getByTestId('recent-extraction');
    assert.equal(await recent.count(), 1);
    assert.match(await recent.first().innerText(), /LIVE \(privé\)\s*EURUSD_M15_20230102_to_20230105\.csv/);
    await shot(page, 'csv-shop-04-extraction');

    // The same range again is free; the list stays at one file.
    await page.getByTestId('extract-submit').click();
    await page.getByTestId('extract-status').getByText('aucun crédit débité', { exact: false }).waitFor();
    assert.equal(await badgeCredits(page), '1');
    const download = page.waitForEvent('download');
    await recent.first().getByRole('button', { name: 'Télécharger' }).click();
    assert.equal((await download).suggestedFilename(), 'EURUSD_M15_20230102_to_20230105.csv');

    // Down to 0 credits with a library file, then the server refuses the next one.
    await page.getByTestId('filter-symbol').selectOption('EU50');
    await cards(page).first().getByTestId('csv-download').click();
    await page.getByTestId('credits-badge').getByText('0', { exact: true }).waitFor();
    await cards(page).nth(1).getByTestId('csv-download').click();
    await page.getByTestId('csv-notice').getByText('Crédits insuffisants : 1 crédit nécessaire, solde 0.').waitFor();
    await page.getByTestId('extract-start').fill('2023-02-01');
    await page.getByTestId('extract-end').fill('2023-02-02');
    await page.getByTestId('extract-submit').click();
    await page.getByTestId('extract-status').getByText('Crédits insuffisants : 1 crédit nécessaire, solde 0.').waitFor();
    await page.context().close();
  });

  it('a library that does not load says so', async () => {
    const page = await signedInPage(running.browser, running.server, null, '/home');
    await page.route('**/api/list_csv_library', (route) => route.abort());
    await page.goto(`${running.server.url}/csv-shop`);
    await page.getByTestId('csv-library-error').waitFor();
    assert.equal(await page.getByTestId('csv-library-error').innerText(), 'Erreur de chargement');
    await page.unroute('**/api/list_csv_library');
    await page.getByTestId('csv-refresh').click();
    await cards(page).first().waitFor();
    // Identical GETs within 250 ms share one answer (docs/web.md, "GET de-duplication"): the
    // refresh below is a new read only past that window from the one above, whatever the speed.
    await page.waitForTimeout(250);
    await page.route('**/api/list_csv_library', (route) => route.fulfill({ status: 503, json: { detail: 'indisponible' } }));
    await page.getByTestId('csv-refresh').click();
    await page.getByTestId('csv-library-error').getByText('Erreur de rafraîchissement').waitFor();
    assert.ok((await cards(page).count()) > 0, 'the files already shown stay');
    await page.context().close();
  });
});
