/**
 * Dialogs and the keyboard (components/Modal.tsx) in Chromium against the real bt server: focus
 * moves into a dialog, Tab and Shift+Tab stay inside it, Escape closes it and gives focus back to
 * the control that opened it. Run after `npm run build -w @bt/web`:
 * `npx tsx --conditions=@bt/source --test e2e/dialogs.test.ts`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { signedInPage, useServerAndBrowser } from './work-area-support.js';

const running = useServerAndBrowser();

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
