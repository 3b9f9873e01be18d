/**
 * The admin console /admin (docs/web.md "Admin console") in Chromium against the real bt server: seeded through the
 * API (users, a Stripe purchase through the local Stripe server of the server's tests, a deletion,
 * real backtests, an imported strategy, an invoice PDF) and, for the heatmap, backtest rows dated
 * in the server's SQLite database then turned into events by the console's own reset and rebuild.
 * Each tab shows the server's data, each action changes the server's state and the screen shows
 * it, each confirmation can be cancelled; a trader's key is refused; every tab fits 375 px.
 * The Users and History tabs, with their pages: e2e/admin-users.test.ts.
 * Run after `npm run build -w @bt/web`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { importArchive } from '../../server/test/support/import-archives.js';
import { cancelThenConfirm, fitsWidth, nb, seedDatedRuns, useAdminConsole } from './admin-console-setup.js';
import { BREAKOUT_PY } from './dashboard-setup.js';
import { api, runBacktest, shot } from './work-area-support.js';

const heat = {} as { grid: number[][]; runs: number };

const { running, seeded, adminApi, pageAs, adminPage } = useAdminConsole(async ({ running: { server }, seeded, dbFile, adminApi }) => {
  // Alice's invoice PDF drawn once (a billing file).
  const invoices = await api(server, 'GET', '/api/profile/invoices', { key: seeded.alice.key });
  assert.equal(invoices.body.items.length, 1);
  assert.equal((await api(server, 'GET', invoices.body.items[0].url, { key: seeded.alice.key })).status, 200);
  // Carla deleted by the admin: the re-creation counter the maintenance tab resets.
  assert.equal((await adminApi('POST', '/api/admin/delete_user', { user_id: seeded.carla.id })).status, 200);
  // Real backtests (one each for Alice and Bruno), an imported strategy (archived).
  await runBacktest(server, seeded.alice.key, { sl_pips: 10 });
  await runBacktest(server, seeded.bruno.key, { strategy: 'ob_pullback_pure' });
  const form = new FormData();
  form.append('file', new Blob([BREAKOUT_PY], { type: 'text/x-python' }), 'cassure.py');
  form.append('note', 'e2e admin');
  const imported = await fetch(`${server.url}/api/user/strategies/import`, { method: 'POST', headers: { 'X-API-Key': seeded.alice.key }, body: form });
  assert.equal(imported.status, 201, await imported.clone().text());
  Object.assign(heat, await seedDatedRuns(dbFile));
});

// ---- helpers ----

/** Every load of the tab answered (no spinner left). */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => !(globalThis as any).document.querySelector('.admin-loading, [data-testid=disk-checking]'));
}

describe('the admin console /admin', () => {
  it('statistics: range, KPI details, reset and rebuild (confirmed), the heatmap equals the dated runs, drill-down, analyses', async () => {
    const page = await adminPage('stats');
    const start = await page.getByTestId('range-start').inputValue();
    const end = await page.getByTestId('range-end').inputValue();
    assert.equal(end, new Date().toISOString().slice(0, 10));
    assert.equal((Date.parse(end) - Date.parse(start)) / 86_400_000, 29, 'the last 30 days');
    // Du past Au pushes Au.
    await page.getByTestId('range-start').fill('2099-01-05');
    assert.equal(await page.getByTestId('range-end').inputValue(), '2099-01-05');
    await page.getByTestId('range-end').fill('2098-12-31');
    assert.equal(await page.getByTestId('range-start').inputValue(), '2098-12-31');
    await page.locator('[data-range=month]').click();
    await page.getByTestId('kpi-total_sales_eur').getByText(/10,00/).waitFor();
    // Refunds beside the sales, and the net (docs/admin.md "Overview"): nothing refunded here.
    assert.match(nb(await page.getByTestId('kpi-refunds_eur').innerText()), /Remboursements[^]*0,00 €/);
    assert.match(nb(await page.getByTestId('kpi-net_sales_eur').innerText()), /Ventes nettes[^]*10,00 €/);

    const eventCount = async () => (await adminApi('GET', '/api/admin/metrics/overview?range=all')).body.backtests_count as number;
    await cancelThenConfirm(page, () => page.getByTestId('stats-reset').click(), async () => assert.equal(await eventCount(), 2, 'the live log: 2 finished runs'));
    await page.getByTestId('kpi-backtests_count').getByText('0', { exact: true }).waitFor();
    assert.equal(await eventCount(), 0);
    await cancelThenConfirm(page, () => page.getByTestId('stats-rebuild').click(), async () => assert.equal(await eventCount(), 0));
    await page.getByTestId('kpi-backtests_count').getByText(String(heat.runs), { exact: true }).waitFor();
    assert.equal(await eventCount(), heat.runs);
    await page.getByTestId('kpi-total_sales_eur').getByText(/10,00/).waitFor();

    // The heatmap's cells are the dated runs, Monday first.
    const cells = await page.getByTestId('heat-cell').evaluateAll((nodes) => nodes.map((n) => [Number(n.getAttribute('data-day')), Number(n.getAttribute('data-hour')), Number(n.getAttribute('data-count')), (n as any).style.backgroundColor as string]));
    assert.equal(cells.length, 7 * 24);
    const grid = Array.from({ length: 7 }, () => Array<number>(24).fill(0));
    for (const [day, hour, count] of cells as [number, number, number, string][]) grid[day][hour] = count;
    assert.deepEqual(grid, heat.grid);
    const max = Math.max(...heat.grid.flat());
    const shade = (c: string) => Number(/rgba\([^)]*,\s*([\d.]+)\)/.exec(c)?.[1]);
    for (const [, , count, color] of cells as [number, number, number, string][]) {
      const expected = count === 0 ? 0.08 : 0.08 + 0.42 * (count / max);
      // Chromium keeps an alpha in 1/255 steps and prints 2 decimals.
      assert.ok(Math.abs(shade(color) - expected) < 0.01, `${count} → ${color}`);
    }
    const busiest = page.locator(`[data-testid=heat-cell][data-count="${max}"]`).first();
    await busiest.click();
    const drill = page.getByRole('dialog');
    await drill.getByTestId('heatmap-drilldown').waitFor();
    assert.equal(await drill.getByTestId('details-row').count(), max);
    await shot(page, 'admin-02-heatmap-drilldown', false);
    await drill.getByRole('button', { name: 'Fermer' }).click();

    // KPI details: the sale.
    await page.getByTestId('kpi-total_sales_eur').click();
    const details = page.getByRole('dialog');
    await details.getByTestId('kpi-details').waitFor();
    assert.match(nb(await details.getByTestId('details-row').first().innerText()), /Pack 12 crédits[^]*stripe[^]*10,00 €/);
    await details.getByRole('button', { name: 'Fermer' }).click();

    // Ledger and analyses.
    await page.getByTestId('ledger-table').getByText('Pack 12 crédits').waitFor();
    await page.getByTestId('open-analyses').click();
    const analyses = page.getByRole('dialog');
    await analyses.getByTestId('chart-backtests_by_symbol').locator('svg').waitFor();
    await analyses.getByTestId('chart-sales_by_method').locator('svg').waitFor();
    assert.match(await analyses.getByTestId('chart-dau_wau_mau').innerText(), /DAU[^]*WAU[^]*MAU/);
    await shot(page, 'admin-03-analyses-1440', false);
    await analyses.getByRole('button', { name: 'Fermer' }).click();
    await shot(page, 'admin-04-stats-1440');
    await page.context().close();
  });

  it('backtests: 20 then more, the xlsx of a run, hide kept in admin_hidden_backtests_v1', async () => {
    const page = await adminPage('backtests');
    await page.getByTestId('backtests-table').waitFor();
    assert.equal(await page.getByTestId('backtest-row').count(), 20);
    assert.equal(await page.getByTestId('backtests-count').innerText(), `20 sur ${heat.runs}`);
    // "More" asks for the next page only: the route refuses a limit above 500, so growing the limit stopped at 500 runs.
    const more = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/admin/stats/backtest_summary');
    await page.getByTestId('backtests-more').click();
    const asked = new URL((await more).url()).searchParams;
    assert.deepEqual([asked.get('limit'), asked.get('offset')], ['20', '20']);
    await page.waitForFunction((n) => (globalThis as any).document.querySelectorAll('[data-testid=backtest-row]').length === n, heat.runs);
    assert.equal(await page.getByTestId('backtests-count').innerText(), `${heat.runs} sur ${heat.runs}`);
    assert.equal(await page.getByTestId('backtests-more').count(), 0);
    const real = page.locator('[data-testid=backtest-row]:not([data-folder*="_copie"])').first();
    const folder = (await real.getAttribute('data-folder'))!;
    const download = page.waitForEvent('download');
    await real.getByTestId('backtest-xlsx').click();
    const file = await download;
    assert.equal(file.suggestedFilename(), `${folder}.xlsx`);
    assert.equal(readFileSync((await file.path())!).subarray(0, 2).toString(), 'PK', 'a workbook');
    // Hiding the first row of the first page (the page a reload shows).
    const first = page.getByTestId('backtest-row').first();
    const id = (await first.getAttribute('data-id'))!;
    await first.getByTestId('backtest-hide').click();
    await page.locator(`[data-testid=backtest-row][data-id="${id}"]`).waitFor({ state: 'detached' });
    assert.deepEqual(JSON.parse((await page.evaluate("localStorage.getItem('admin_hidden_backtests_v1')")) as string), [id]);
    await page.reload();
    await page.getByTestId('backtests-table').waitFor();
    assert.equal(await page.locator(`[data-testid=backtest-row][data-id="${id}"]`).count(), 0, 'still hidden after a reload');
    await page.getByTestId('backtests-unhide').click();
    await page.locator(`[data-testid=backtest-row][data-id="${id}"]`).waitFor();
    await page.context().close();
  });

  it('strategies: the import archive, details with the source, download, soft delete and Restaurer tout', async () => {
    const page = await adminPage('strategies');
    const total = () => page.getByTestId('archive-total-import').locator('.admin-kpi-value');
    await total().getByText('1', { exact: true }).waitFor();
    assert.equal(await page.getByTestId('archive-gpt').getByTestId('admin-empty').innerText(), 'Aucune stratégie pour le moment.');
    const list = page.getByTestId('archive-import');
    const row = list.getByTestId('archive-row').first();
    await row.getByTestId('archive-details').click();
    const modal = page.getByRole('dialog');
    assert.match(await modal.getByTestId('archive-source').innerText(), /def detect_breakout/);
    await modal.getByRole('button', { name: 'Fermer' }).click();
    const download = page.waitForEvent('download');
    await row.getByTestId('archive-download').click();
    const saved = await download;
    assert.match(readFileSync((await saved.path())!, 'utf8'), /detect_breakout/);
    // Saved under the name the server gives (Content-Disposition).
    const [entry] = (await adminApi('GET', '/api/admin/strategies/recent?type=import')).body.items as { id: number; timestamp: number }[];
    const direct = await adminApi('GET', `/api/admin/strategies/archive/download?type=import&id=${entry.id}&ts=${entry.timestamp}`);
    assert.equal(`attachment; filename="${saved.suggestedFilename()}"`, direct.headers.get('content-disposition'));
    const recent = async () => ((await adminApi('GET', '/api/admin/strategies/recent?type=import')).body.items as unknown[]).length;
    await cancelThenConfirm(page, () => row.getByTestId('archive-delete').click(), async () => assert.equal(await recent(), 1));
    await list.getByTestId('admin-empty').getByText('Aucune stratégie pour le moment.').waitFor();
    await total().getByText('0', { exact: true }).waitFor();
    assert.equal(await recent(), 0);
    await cancelThenConfirm(page, () => list.getByTestId('archive-restore-all').click(), async () => assert.equal(await recent(), 0));
    await list.getByTestId('archive-row').first().waitFor();
    await total().getByText('1', { exact: true }).waitFor();
    assert.equal(await recent(), 1);
    await shot(page, 'admin-05-strategies-1440');
    await page.context().close();
  });

  it('disk: roots, a tree by depth, sizes in o/ko/Mo, a file downloaded', async () => {
    const page = await adminPage('disk');
    const roots = (await adminApi('GET', '/api/admin/fs/roots')).body.roots as { key: string }[];
    await page.getByTestId('disk-table').waitFor();
    assert.deepEqual(await page.getByTestId('disk-root').locator('option').evaluateAll((o) => o.map((x) => (x as any).value)), roots.map((r) => r.key));
    await page.getByTestId('disk-root').selectOption('library');
    await page.getByTestId('disk-table').waitFor();
    await page.locator('[data-testid=disk-entry][data-rel="EURUSD"]').getByTestId('disk-open').click();
    await page.getByTestId('disk-path').getByText('/EURUSD').waitFor();
    await page.getByTestId('disk-depth').selectOption('1');
    const file = page.locator('[data-testid=disk-entry][data-type=file][data-rel$=".csv"]').first();
    await file.waitFor();
    const rel = (await file.getAttribute('data-rel'))!;
    assert.match(rel, /^EURUSD\/[A-Z0-9]+\/EURUSD_.*\.csv$/, 'depth 1 lists the files one level down');
    const size = nb(await file.getByTestId('disk-size').innerText());
    assert.match(size, /^\d[\d ,]* (o|ko|Mo|Go)$/);
    const download = page.waitForEvent('download');
    await file.getByTestId('disk-download').click();
    const saved = await download;
    assert.equal(saved.suggestedFilename(), rel.split('/').pop());
    const bytes = readFileSync((await saved.path())!).length;
    const tree = (await adminApi('GET', `/api/admin/fs/tree?root=library&path=EURUSD&depth=1`)).body.entries as { rel_path: string; bytes: number }[];
    assert.equal(bytes, tree.find((e) => e.rel_path === rel)!.bytes);
    await page.getByTestId('disk-up').click();
    await page.getByTestId('disk-path').getByText('/', { exact: true }).waitFor();
    await shot(page, 'admin-06-disk-1440');
    await page.context().close();
  });

  it('maintenance: reindex, re-creation counters reset, billing file deleted, output import simulated then executed', async () => {
    const page = await adminPage('maintenance');
    await page.getByTestId('reindex').click();
    assert.match(await page.getByTestId('reindex-result').innerText(), /^Indexation terminée : \d+ jeu\(x\) de données, \d[\d\s]* fichier\(s\)\.$/);

    // Carla's deletion (in the seeding) left a counter.
    const counter = page.getByTestId('recreate-row').filter({ hasText: seeded.carla.email });
    await counter.waitFor();
    const counts = async () => ((await adminApi('GET', '/api/admin/email-recreate')).body.counts as unknown[]).length;
    await cancelThenConfirm(page, () => counter.getByTestId('recreate-reset-one').click(), async () => assert.equal(await counts(), 1));
    await page.getByTestId('maintenance-recreate').getByTestId('admin-empty').getByText('Aucune entrée.').waitFor();
    assert.equal(await counts(), 0);

    // The invoice PDF drawn during the seeding.
    const invoices = page.getByTestId('maintenance-invoices');
    assert.match(nb(await invoices.getByTestId('invoices-info').innerText()), /^1 fichier\(s\), \d+(,\d)? ko$/);
    const invoice = invoices.getByTestId('invoice-row').first();
    const pdf = page.waitForEvent('download');
    await invoice.getByTestId('invoice-download').click();
    assert.equal(readFileSync((await (await pdf).path())!).subarray(0, 4).toString(), '%PDF');
    await cancelThenConfirm(page, () => invoice.getByTestId('invoice-delete').click(), async () => assert.equal((await adminApi('GET', '/api/admin/factures_info')).body.count, 1));
    await invoices.getByTestId('admin-empty').getByText('Aucun fichier.').waitFor();
    assert.equal((await adminApi('GET', '/api/admin/factures_info')).body.count, 0);

    // The import: nothing given, then a ZIP simulated (the state shows), then imported for real.
    const form = page.getByTestId('maintenance-import');
    assert.equal(await form.getByTestId('import-month').inputValue(), new Date().toISOString().slice(0, 7));
    assert.equal(await form.getByTestId('import-mode').inputValue(), 'skip');
    await form.getByTestId('import-submit').click();
    await form.getByRole('alert').getByText('Fournis un ZIP (fichier) ou une URL.').waitFor();
    // A URL goes to the server, which refuses a local address: the refusal is shown as it says it.
    await form.getByTestId('import-url').fill('http://127.0.0.1:9/output.zip');
    await form.getByTestId('import-submit').click();
    await form.getByRole('alert').getByText(/^Échec de l'import\. URL refusée : 127\.0\.0\.1 désigne une adresse privée ou locale/).waitFor();
    await form.getByTestId('import-url').fill('');
    const month = '2019-02';
    const start = Date.UTC(2019, 1, 1);
    let price = 1.1345;
    const lines = ['Datetime,Open,High,Low,Close,Volume'];
    for (let t = start; t < Date.UTC(2019, 2, 1); t += 3_600_000) {
      const next = price + (Math.sin(t / 7_200_000) * 0.0004);
      lines.push(`${new Date(t).toISOString().slice(0, 19).replace('T', ' ')}+00:00,${price.toFixed(5)},${(Math.max(price, next) + 0.0002).toFixed(5)},${(Math.min(price, next) - 0.0002).toFixed(5)},${next.toFixed(5)},100`);
      price = next;
    }
    const zip = importArchive([{ name: `EURUSD_H1_${month}.csv`, data: `${lines.join('\n')}\n` }]);
    await form.getByTestId('import-file').setInputFiles({ name: 'output.zip', mimeType: 'application/zip', buffer: zip });
    await form.getByTestId('import-month').fill(month);
    const held = async () => {
      const listed = (await api(running.server, 'GET', '/api/datasets')).body.symbols as { symbol: string; timeframes: { timeframe: string; ranges: { first_candle: string }[] }[] }[];
      const h1 = listed.find((s) => s.symbol === 'EURUSD')?.timeframes.find((t) => t.timeframe === 'H1');
      return JSON.stringify(h1?.ranges ?? []);
    };
    const heldBefore = await held();
    // The answer is held back a moment so the state between is seen.
    await page.route('**/api/admin/maintenance/import-output', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    await form.getByTestId('import-submit').click();
    await form.locator('[data-testid=import-state][data-state=simulating]').waitFor();
    await form.getByTestId('import-result').waitFor();
    await form.locator('[data-testid=import-state][data-state=idle]').waitFor();
    assert.match(await form.getByTestId('import-line').first().innerText(), /EURUSD_H1_2019-02\.csv[^]*à ajouter/);
    assert.equal(await held(), heldBefore, 'a dry run writes nothing');
    await form.getByTestId('import-dry-run').uncheck();
    await form.getByTestId('import-submit').click();
    await form.locator('[data-testid=import-state][data-state=executing]').waitFor();
    await form.getByTestId('import-line').getByText('ajouté', { exact: true }).waitFor();
    assert.notEqual(await held(), heldBefore, 'the library index holds the imported month');
    const ranges = JSON.parse(await held()) as { first_candle: string }[];
    assert.ok(ranges.some((r) => Date.parse(r.first_candle) === start), `a range starts on 1 February 2019: ${JSON.stringify(ranges)}`);
    await shot(page, 'admin-07-maintenance-1440');
    await page.context().close();
  });

  it('every tab fits 375 px (the tabs are a select), and the deep link opens the tab', async () => {
    const page = await adminPage('stats', 375);
    assert.equal(await page.getByTestId('admin-tab-select').inputValue(), 'stats');
    assert.equal(await page.getByTestId('admin-tab-stats').isVisible(), false, 'the sidebar is a select on a phone');
    for (const tab of ['users', 'history', 'stats', 'backtests', 'strategies', 'disk', 'maintenance']) {
      await page.getByTestId('admin-tab-select').selectOption(tab);
      await page.waitForURL((url) => url.searchParams.get('tab') === tab);
      await page.getByTestId(`admin-${tab}`).waitFor();
      await settled(page);
      await fitsWidth(page, 375, tab);
      await shot(page, `admin-08-${tab}-375`);
      if (tab === 'stats') {
        // The analyses modal draws its charts at the phone's width.
        await page.getByTestId('open-analyses').click();
        const dialog = page.getByRole('dialog');
        await dialog.getByTestId('chart-backtests_by_symbol').locator('svg').waitFor();
        const widths = await dialog.locator('svg').evaluateAll((svgs) => svgs.map((svg) => (svg as any).getBoundingClientRect().right as number));
        assert.ok(widths.every((right) => right <= 375), `charts inside 375 px: ${widths.join(', ')}`);
        await shot(page, 'admin-08-analyses-375', false);
        await dialog.getByRole('button', { name: 'Fermer' }).click();
      }
    }
    await page.context().close();
  });

  it("a trader's key is refused the page and every admin call", async () => {
    const page = await pageAs(seeded.bruno.key, '/admin?tab=users');
    await page.waitForURL(/\/dashboard$/);
    assert.equal(await page.getByTestId('admin-page').count(), 0);
    for (const path of ['/api/admin/get_users', '/api/admin/metrics/overview', '/api/admin/fs/roots']) {
      const answer = await api(running.server, 'GET', path, { key: seeded.bruno.key });
      assert.deepEqual([answer.status, answer.body.detail], [403, 'Accès réservé aux administrateurs.']);
    }
    await page.context().close();
  });
});
