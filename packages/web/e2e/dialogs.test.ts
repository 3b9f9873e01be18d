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
});
