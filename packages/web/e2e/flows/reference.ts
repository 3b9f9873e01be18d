/**
 * The reference pages and small faults fixed with them: /a-savoir's pair sheets and Techniques,
 * the strategy documentation page (strat read, chosen, written back; sidebar or 'Sommaire'), both
 * at 375 and 1440 px without sideways scrolling; the footer's year; a non-admin's browser never
 * asking the admin ping; the built-in generator named as such, down to its strategy's label.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { STRATEGIES, STRATEGY_DOCS, strategyDoc } from '@bt/core/catalogue';
import { newAccount, registerVerified } from '../support/api.js';
import type { Flow } from '../support/flow.js';

const WIDTHS = [375, 1440] as const;

async function assertNoSidewaysScroll(page: Page, what: string): Promise<void> {
  // A function, not a string: the server's Content-Security-Policy forbids eval in the page.
  const { scrollWidth, innerWidth } = await page.evaluate(() => {
    const view = globalThis as unknown as { innerWidth: number; document: { documentElement: { scrollWidth: number } } };
    return { scrollWidth: view.document.documentElement.scrollWidth, innerWidth: view.innerWidth };
  });
  assert.ok(scrollWidth <= innerWidth, `${what}: document ${scrollWidth} px wide in a ${innerWidth} px window`);
}

/** The detail's top once the scroll has settled (smooth, or instant under reduced motion). */
async function settledTop(page: Page, selector: string): Promise<number> {
  let last = Number.NaN;
  for (let i = 0; i < 40; i++) {
    const top = await page.locator(selector).evaluate((el) => Math.round(el.getBoundingClientRect().top));
    if (top === last) return top;
    last = top;
    await page.waitForTimeout(50);
  }
  return last;
}

async function libraryMonths(baseUrl: string, symbol: string): Promise<number> {
  const answer = (await (await fetch(`${baseUrl}/api/list_csv_library?symbol=${symbol}`)).json()) as { total: number };
  return answer.total;
}

export function referenceFlow(flow: Flow): void {
  describe('the reference pages', () => {
    for (const width of WIDTHS) {
      it(`/a-savoir at ${width} px: a pair sheet read from 'pair' and written back, its four lines, the months bt holds, the VIX`, async () => {
        const { page, close } = await flow.h.newPage({ width, height: 900 });
        await page.goto(`${flow.h.url}/a-savoir?pair=eur/usd#paires`);
        const sheet = page.getByTestId('pair-sheet');
        await sheet.waitFor();
        assert.equal(await page.getByTestId('pair-select').inputValue(), 'EURUSD', 'any usual spelling of the pair is read');
        assert.equal(await sheet.getAttribute('data-symbol'), 'EURUSD');
        assert.equal(await page.getByTestId('pip-badge').innerText(), '1 pip = 0,0001');
        assert.deepEqual(await sheet.locator('.spec-lines dt').allInnerTexts(), ['Classe d’actif', 'Pip', 'Sessions et volatilité', 'Données dans bt']);
        const data = sheet.locator('.spec-lines dd[data-status]');
        await sheet.locator('.spec-lines dd[data-status=ready]').waitFor();
        // fixtures/ seed EURUSD H1 and M15 months: the line names them.
        assert.match(await data.innerText(), /H1[^;]* : \d+ mois entre .+ et .+/);
        assert.ok((await sheet.locator('h4 + ul').first().locator('li').count()) >= 2, 'notes');
        assert.equal(await sheet.getByRole('link', { name: /Backtester EURUSD/ }).getAttribute('href'), '/backtest?symbol=EURUSD');
        assert.equal(await sheet.getByRole('link', { name: /Données CSV/ }).getAttribute('href'), '/csv-shop?symbol=EURUSD');
        await assertNoSidewaysScroll(page, `/a-savoir EURUSD at ${width}`);
        await flow.h.shot(page, `30-reference-pair-eurusd-${width}`, false);

        await page.getByTestId('pair-select').selectOption('XAUUSD');
        await page.waitForURL((url) => url.searchParams.get('pair') === 'XAUUSD');
        // The address changes first; the router renders the new sheet in a transition.
        await page.locator('[data-testid=pair-sheet][data-symbol=XAUUSD]').waitFor();
        assert.equal(await page.getByTestId('pip-badge').innerText(), '1 pip = 0,1');
        await sheet.locator('.spec-lines dd[data-status=ready]').waitFor();
        if ((await libraryMonths(flow.h.url, 'XAUUSD')) === 0) assert.match(await data.innerText(), /^Pas encore de données officielles/);
        else assert.match(await data.innerText(), /mois/);
        assert.match(await sheet.innerText(), /COMEX de 100 onces/);
        await assertNoSidewaysScroll(page, `/a-savoir XAUUSD at ${width}`);

        await page.reload();
        assert.equal(await page.getByTestId('pair-select').inputValue(), 'XAUUSD', 'read back on load');
        const glossary = await page.locator('#glossaire').innerText();
        assert.match(glossary, /VIX[\s\S]*au-dessus de 20, marché sous tension ; en dessous de 15, marché calme/);
        await close();
      });

      it(`/a-savoir/strategies at ${width} px: first strategy by default, strat chosen and written back, scroll to the detail, table of contents`, async () => {
        const { page, close } = await flow.h.newPage({ width, height: 900 });
        await page.goto(`${flow.h.url}/a-savoir/strategies`);
        const detail = page.getByTestId('strategy-detail');
        await detail.waitFor();
        const first = STRATEGY_DOCS[0]!;
        await page.waitForURL((url) => url.searchParams.get('strat') === first.key);
        assert.equal(await detail.getAttribute('data-key'), first.key);
        assert.equal(await page.getByTestId('strategy-select').inputValue(), first.key);
        const toc = page.getByTestId('strategy-toc').locator('details');
        assert.equal(await toc.evaluate((d) => (d as unknown as { open: boolean }).open), width >= 1024, 'a sidebar on desktop, a closed Sommaire on phones');

        const chosen = strategyDoc('englobante_entry_rsi_ema')!;
        await page.getByTestId('strategy-select').selectOption(chosen.key);
        await page.waitForURL((url) => url.searchParams.get('strat') === chosen.key);
        await detail.locator('h2', { hasText: chosen.title }).waitFor();
        assert.equal(await detail.locator('.tag').count(), chosen.tags.length);
        assert.equal(await detail.getByTestId('param-table').locator('tbody tr').count(), chosen.parameters.length);
        assert.match(await detail.getByTestId('param-table').innerText(), /Seuil RSI[\s\S]*rsi_threshold[\s\S]*50/);
        assert.equal(await detail.getByText('à compléter').count(), 0);
        const top = await settledTop(page, '[data-testid=strategy-detail]');
        assert.ok(Math.abs(top - 90) <= 2, `the detail sits 90 px under the top after the scroll (${top})`);
        await assertNoSidewaysScroll(page, `strategy page at ${width}`);
        await flow.h.shot(page, `31-strategy-docs-${width}`, false);

        // The table of contents: on phones it opens on demand and closes once a strategy is chosen.
        if (width < 1024) await page.getByTestId('strategy-toc').locator('summary').click();
        const other = strategyDoc('fvg_pullback_tendance_ema')!;
        await page.getByTestId('strategy-toc').getByRole('link', { name: other.title, exact: true }).click();
        await page.waitForURL((url) => url.searchParams.get('strat') === other.key);
        await page.locator(`[data-testid=strategy-detail][data-key=${other.key}]`).waitFor();
        assert.equal(await toc.evaluate((d) => (d as unknown as { open: boolean }).open), width >= 1024);
        await page.goBack();
        await page.waitForURL((url) => url.searchParams.get('strat') === chosen.key);

        // An address written another way is read and rewritten; an unknown one falls back to the first.
        await page.goto(`${flow.h.url}/a-savoir/strategies?strat=FVG_Impulsive`);
        await page.waitForURL((url) => url.searchParams.get('strat') === 'fvg_impulsive');
        await page.locator('[data-testid=strategy-detail][data-key=fvg_impulsive]').waitFor();
        await page.goto(`${flow.h.url}/a-savoir/strategies?strat=ob_pulback`);
        await page.getByText('Stratégie inconnue : « ob_pulback ». Voici la première de la liste.').waitFor();
        await page.waitForURL((url) => url.searchParams.get('strat') === first.key);
        await assertNoSidewaysScroll(page, `strategy page (unknown) at ${width}`);
        await close();
      });
    }

    it('the strategy documentation is linked from /a-savoir’s Techniques and from the backtest form’s picker', async () => {
      const { page, close } = await flow.h.newPage();
      await page.goto(`${flow.h.url}/a-savoir#techniques`);
      // Techniques lists the strategies by French label; the first is selected.
      const firstByLabel = [...STRATEGIES].sort((a, b) => a.label.localeCompare(b.label, 'fr'))[0]!;
      const link = page.getByTestId('technique-sheet').getByTestId('strategy-doc-link');
      assert.equal(await link.getAttribute('href'), `/a-savoir/strategies?strat=${firstByLabel.key}`);
      await link.click();
      await page.waitForURL((url) => url.pathname === '/a-savoir/strategies' && url.searchParams.get('strat') === firstByLabel.key);
      await page.getByTestId('strategy-detail').locator('h2', { hasText: firstByLabel.label }).waitFor();
      await page.goto(`${flow.h.url}/backtest`);
      const pickerLink = page.getByTestId('strategy-doc-link');
      assert.equal(await pickerLink.getAttribute('aria-label'), 'Documentation des stratégies');
      assert.equal(await pickerLink.getAttribute('href'), '/a-savoir/strategies');
      await page.getByTestId('official-strategy').selectOption('fvg_impulsive_rsi');
      assert.equal(await pickerLink.getAttribute('href'), '/a-savoir/strategies?strat=fvg_impulsive_rsi');
      await close();
    });

    it('the footer’s year is the clock’s', async () => {
      const { page, close } = await flow.h.newPage();
      await page.clock.setFixedTime(new Date('2031-03-15T12:00:00Z'));
      await page.goto(`${flow.h.url}/home`);
      assert.equal(await page.getByTestId('footer-copyright').innerText(), '© 2031 bt. Tous droits réservés');
      await close();
    });

    it('a trader: no admin ping, the "générateur intégré" named as such and its strategy not labelled IA; an admin is pinged', async () => {
      const account = newAccount('Gen', 'Trader');
      const key = await registerVerified(flow.h.url, account);
      const { page, close } = await flow.h.newPage();
      const pings: string[] = [];
      const refused: string[] = [];
      page.on('request', (request) => request.url().includes('/api/admin/ping') && pings.push(request.url()));
      page.on('console', (message) => message.type() === 'error' && /403/.test(message.text()) && refused.push(message.text()));
      await page.goto(`${flow.h.url}/backtest?apiKey=${encodeURIComponent(key)}`);
      await page.waitForURL((url) => !url.searchParams.has('apiKey'));
      await page.getByTestId('credits-badge').locator('strong').getByText('2', { exact: true }).waitFor();
      const toggle = page.getByRole('button', { name: 'Générer une stratégie (générateur intégré)' });
      await toggle.click();
      const panel = page.getByTestId('ai-panel');
      await panel.getByRole('heading', { name: 'Générer une stratégie avec le générateur intégré' }).waitFor();
      assert.match(await panel.getByTestId('generator-hint').innerText(), /Aucun modèle de langage n’est configuré/);
      await panel.getByLabel('Décris ta logique d’entrée').fill('FVG haussier avec RSI sous 35, attendre 2 bougies');
      await panel.getByRole('button', { name: 'Générer' }).click();
      const created = panel.getByTestId('generated-by');
      await created.waitFor({ timeout: 60_000 });
      assert.match(await created.innerText(), /^Stratégie créée par le générateur intégré : us_[0-9a-f]{16}$/);
      await panel.getByRole('button', { name: 'Utiliser' }).click();
      const option = page.getByTestId('user-strategy').locator('option:checked');
      const picker = page.getByTestId('user-strategy');
      for (let i = 0; i < 100 && !(await picker.inputValue()).startsWith('us_'); i++) await page.waitForTimeout(50);
      assert.match(await option.innerText(), / · Générateur intégré$/);
      assert.equal(await page.getByText('Mes stratégies (générées / importées)').count(), 1);
      assert.doesNotMatch(await page.getByTestId('backtest-form').innerText(), /\bIA\b/);
      await flow.h.shot(page, '32-builtin-generator');
      await page.goto(`${flow.h.url}/dashboard`);
      await page.locator('.badge', { hasText: 'Générateur intégré' }).first().waitFor();
      assert.deepEqual(pings, [], 'a profile that says "user" is never pinged');
      assert.deepEqual(refused, [], 'no 403 in the console');
      await close();

      const admin = await flow.h.newPage();
      const adminPings: number[] = [];
      admin.page.on('response', (response) => response.url().includes('/api/admin/ping') && adminPings.push(response.status()));
      const login = await fetch(`${flow.h.url}/api/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ identifier: flow.h.server.admin.email, password: flow.h.server.admin.password }) });
      const adminKey = ((await login.json()) as { token: string }).token;
      await admin.page.goto(`${flow.h.url}/home?apiKey=${encodeURIComponent(adminKey)}`);
      await admin.page.getByRole('link', { name: 'Admin' }).waitFor();
      for (let i = 0; i < 40 && adminPings.length === 0; i++) await admin.page.waitForTimeout(50);
      assert.deepEqual(adminPings, [200], 'an admin profile is confirmed by one ping');
      await admin.close();
    });
  });
}
