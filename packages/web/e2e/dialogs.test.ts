/**
 * Dialogs and the keyboard (components/Modal.tsx) in Chromium against the real bt server: focus
 * moves into a dialog, Tab and Shift+Tab stay inside it, Escape closes it and gives focus back to
 * the control that opened it; the statistics modal's tabs and the avatar's colours move with the
 * arrow keys, one tab stop each (docs/web.md "Keyboard in groups"). Run after `npm run build -w @bt/web`:
 * `npx tsx --conditions=@bt/source --test e2e/dialogs.test.ts`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { newUser, runBacktest, signedInPage, type TestUser, useServerAndBrowser } from './work-area-support.js';

let trader: TestUser;
const running = useServerAndBrowser(async ({ server }) => {
  trader = await newUser(server, { verified: true, credits: 2 });
  await runBacktest(server, trader.key);
});

/** The focused element's role, name and tabindex. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const active = (globalThis as any).document.activeElement;
    return { role: active?.getAttribute('role'), name: active?.getAttribute('aria-label') || active?.textContent?.trim(), tabIndex: active?.tabIndex };
  });

/** Whether the focused element is inside the open dialog, and what it is. */
const focusInDialog = (page: Page) =>
  page.evaluate(() => {
    const doc = (globalThis as any).document;
    const dialog = doc.querySelector('[role=dialog]');
    const active = doc.activeElement;
    return { inside: !!dialog && dialog.contains(active), what: `${active?.tagName} ${active?.textContent?.trim().slice(0, 30)}` };
  });

describe('dialogs and the keyboard', () => {
  it('the connection prompt keeps Tab inside, and Escape gives focus back to the button that opened it', async () => {
    const page = await signedInPage(running.browser, running.server, null, '/csv-shop');
    const download = page.getByTestId('csv-download').first();
    await download.click();
    const prompt = page.getByRole('dialog', { name: 'Connexion requise' });
    await prompt.waitFor();
    assert.equal((await focusInDialog(page)).inside, true, 'focus moves into the dialog');

    // The dialog has four controls (close, two links, 'continue as visitor'): ten presses go round twice.
    const seen = new Set<string>();
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Tab');
      const focus = await focusInDialog(page);
      assert.equal(focus.inside, true, `Tab ${i + 1} stays in the dialog (on ${focus.what})`);
      seen.add(focus.what);
    }
    assert.equal(seen.size, 4, `Tab reaches each of the dialog's controls (${[...seen].join(' | ')})`);
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Shift+Tab');
      const focus = await focusInDialog(page);
      assert.equal(focus.inside, true, `Shift+Tab ${i + 1} stays in the dialog (on ${focus.what})`);
    }

    await page.keyboard.press('Escape');
    await prompt.waitFor({ state: 'detached' });
    assert.equal(await download.evaluate((node: any) => node === (globalThis as any).document.activeElement), true, 'focus is back on the download button');
    await page.context().close();
  });

  it('the statistics modal’s tabs: one tab stop, Left/Right/Home/End move and choose the sheet', async () => {
    const page = await signedInPage(running.browser, running.server, trader.key, '/dashboard');
    await page.getByTestId('backtest-card').getByRole('button', { name: 'Voir résultats' }).click();
    const dialog = page.getByRole('dialog');
    const tabs = dialog.getByRole('tab');
    await dialog.getByRole('tab', { name: 'Résumé global', selected: true }).waitFor();
    const names = await tabs.allInnerTexts();
    assert.ok(names.length >= 5, names.join(', '));
    const start = names.indexOf('Résumé global');
    assert.deepEqual(await tabs.evaluateAll((nodes: any[]) => nodes.map((n) => n.tabIndex)), names.map((_, i) => (i === start ? 0 : -1)), 'only the active tab is a tab stop');
    const panel = dialog.getByRole('tabpanel');
    assert.equal(await panel.getAttribute('aria-labelledby'), await tabs.nth(start).getAttribute('id'), 'the panel is named by its tab');

    await tabs.nth(start).focus();
    const expectActive = async (index: number, key: string) => {
      await dialog.getByRole('tab', { name: names[index], selected: true }).waitFor();
      const now = await focused(page);
      assert.deepEqual([now.role, now.name, now.tabIndex], ['tab', names[index], 0], `${key}: focus and selection on ${names[index]}`);
    };
    await page.keyboard.press('ArrowRight');
    await expectActive((start + 1) % names.length, 'ArrowRight');
    await page.keyboard.press('ArrowLeft');
    await expectActive(start, 'ArrowLeft');
    await page.keyboard.press('End');
    await expectActive(names.length - 1, 'End');
    await page.keyboard.press('ArrowRight');
    await expectActive(0, 'ArrowRight from the last');
    await page.keyboard.press('ArrowLeft');
    await expectActive(names.length - 1, 'ArrowLeft from the first');
    await page.keyboard.press('Home');
    await expectActive(0, 'Home');
    await dialog.getByTestId('sheet-table').waitFor();
    // Tab leaves the tab list for the sheet (the inactive tabs are not stops) and stays in the dialog.
    await page.keyboard.press('Tab');
    assert.notEqual((await focused(page)).role, 'tab', 'Tab leaves the tab list');
    assert.equal((await focusInDialog(page)).inside, true);
    await page.context().close();
  });

  it('the avatar’s colours are named in French and move with the arrows', async () => {
    const page = await signedInPage(running.browser, running.server, trader.key, '/profile');
    const group = page.getByRole('radiogroup', { name: 'Couleur de l’avatar' });
    await group.waitFor();
    const labels = await group.getByRole('radio').evaluateAll((nodes: any[]) => nodes.map((n) => n.getAttribute('aria-label')));
    assert.equal(labels.length, 17);
    for (const label of labels) assert.doesNotMatch(String(label), /#/, `${label}: a name, not a hex code`);
    await group.getByRole('radio', { name: 'Rouge' }).click();
    assert.equal(await page.getByTestId('avatar-chosen').innerText(), 'Couleur choisie : Rouge');
    assert.deepEqual((await focused(page)).name, 'Rouge');
    await page.keyboard.press('ArrowRight');
    await group.getByRole('radio', { name: 'Framboise', checked: true }).waitFor();
    assert.equal((await focused(page)).name, 'Framboise');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await group.getByRole('radio', { name: 'Orange', checked: true }).waitFor();
    await page.keyboard.press('Home');
    await group.getByRole('radio', { name: 'Bleu nuit', checked: true }).waitFor();
    assert.deepEqual(await group.getByRole('radio').evaluateAll((nodes: any[]) => nodes.filter((n) => n.tabIndex === 0).length), 1, 'one tab stop');
    await page.context().close();
  });

  it('the sign-in, support and dashboard tabs move with the arrows too', async () => {
    // The sign-in page shows its tabs on a phone only (a link switches forms on a desktop).
    const visitor = await signedInPage(running.browser, running.server, null, '/login', { width: 375, height: 800 });
    const login = visitor.getByRole('tablist', { name: 'Connexion ou inscription' });
    await login.getByRole('tab', { name: 'Connexion', selected: true }).focus();
    await visitor.keyboard.press('ArrowRight');
    await login.getByRole('tab', { name: 'Inscription', selected: true }).waitFor();
    await visitor.waitForURL(/tab=register/);
    assert.equal((await focused(visitor)).name, 'Inscription');
    await visitor.goto(new URL('/support', running.server.url).href);
    const support = visitor.getByRole('tablist', { name: 'Type de demande' });
    const kinds = await support.getByRole('tab').allInnerTexts();
    await support.getByRole('tab', { selected: true }).focus();
    await visitor.keyboard.press('End');
    await support.getByRole('tab', { name: kinds.at(-1), selected: true }).waitFor();
    await visitor.context().close();

    const page = await signedInPage(running.browser, running.server, trader.key, '/dashboard');
    const dash = page.getByRole('tablist', { name: 'Dashboard' });
    await dash.getByRole('tab', { name: 'Mon dashboard', selected: true }).focus();
    await page.keyboard.press('ArrowLeft');
    await dash.getByRole('tab', { name: 'Mes CSV', selected: true }).waitFor();
    await page.waitForURL(/tab=csv/);
    assert.equal((await focused(page)).name, 'Mes CSV');
    await page.context().close();
  });

  it('the hamburger menu (below 1024 px) closes on Escape and gives focus back to its button', async () => {
    const page = await signedInPage(running.browser, running.server, null, '/home', { width: 375, height: 800 });
    const button = page.getByRole('button', { name: 'Menu' });
    const nav = page.locator('#main-nav');
    await button.click();
    await page.waitForFunction(() => (globalThis as any).document.querySelector('#main-nav')?.classList.contains('open'));
    assert.equal(await button.getAttribute('aria-expanded'), 'true');
    // Focus inside the open menu, as a keyboard user walking its links would have it.
    await nav.getByRole('link', { name: 'Tarifs' }).focus();
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !(globalThis as any).document.querySelector('#main-nav')?.classList.contains('open'));
    assert.equal(await button.getAttribute('aria-expanded'), 'false', 'the menu says it is closed');
    assert.equal(await button.evaluate((node: any) => node === (globalThis as any).document.activeElement), true, 'focus is back on the menu button');
    assert.equal(new URL(page.url()).pathname, '/home', 'Escape followed no link');
    await page.context().close();
  });
});
