/**
 * The browser the tests drive (e2e/browser.ts): Debian's Chromium, with Playwright's disabled
 * features and the tests' own in the one --disable-features switch Chromium reads, and without the
 * address bar's suggestion pages, which cost every window a renderer (docs/development.md, "The
 * browser's omnibox page"). Read from the processes themselves, in /proc.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { CHROMIUM, DISABLED_FEATURES, launchBrowser } from './browser.js';

interface Proc {
  pid: number;
  ppid: number;
  exe: string;
  args: string[];
}

function processes(): Proc[] {
  const found: Proc[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      // Chromium's child processes rewrite their command line as one string: split at spaces too.
      const args = readFileSync(`/proc/${name}/cmdline`, 'utf8').split(/[\0 ]/).filter(Boolean);
      found.push({ pid: Number(name), ppid, exe: readlinkSync(`/proc/${name}/exe`), args });
    } catch {
      // ended meanwhile
    }
  }
  return found;
}

/** The browser processes this process started: Playwright talks to them over a pipe. */
function browserProcesses(all: Proc[]): Proc[] {
  return all.filter((p) => p.ppid === process.pid && p.args.includes('--remote-debugging-pipe'));
}

/** The processes below `root`, itself included. */
function tree(all: Proc[], root: number): Proc[] {
  const below = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) if (!below.has(p.pid) && below.has(p.ppid)) (below.add(p.pid), (grew = true));
  }
  return all.filter((p) => below.has(p.pid));
}

describe('the browser the tests drive', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
  let browser: Browser;
  const site = createServer((_request, response) => response.setHeader('content-type', 'text/html').end('<!doctype html><title>t</title><h1>Bonjour</h1>'));
  before(async () => {
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    site.close();
  });

  it("is Chromium itself (Debian's unless BT_CHROMIUM), with one --disable-features switch: Playwright's list and the tests' own", () => {
    // The shell scripts between (ours, then Debian's /usr/bin/chromium) end in exec: the browser
    // process, the one Playwright talks to over its pipe, is a child of this one.
    const started = browserProcesses(processes());
    assert.equal(started.length, 1, 'one browser process started by this one');
    assert.match(started[0].exe, /\/chrom(e|ium)[^/]*$/, `Chromium itself, not a script (${started[0].exe}, ${CHROMIUM})`);
    const switches = started[0].args.filter((arg) => arg.startsWith('--disable-features='));
    assert.equal(switches.length, 1, switches.join(' '));
    const disabled = switches[0].slice('--disable-features='.length).split(',');
    for (const name of DISABLED_FEATURES) assert.ok(disabled.includes(name), `${name} in ${switches[0]}`);
    // Two of Playwright's own: HTTP stays HTTP (the tests' server), and intercepted requests keep
    // their redirects (the tests' page.route).
    for (const name of ['HttpsUpgrades', 'AvoidCorsURLLoaderRestartOnRedirect']) assert.ok(disabled.includes(name), `Playwright's ${name} kept in ${switches[0]}`);
  });

  it("opens contexts without the address bar's suggestion pages", async () => {
    const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    for (let i = 0; i < 2; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(url);
      assert.equal(await page.locator('h1').textContent(), 'Bonjour');
      const all = processes();
      const [root] = browserProcesses(all);
      const renderers = tree(all, root.pid).filter((p) => p.args.includes('--type=renderer'));
      assert.ok(renderers.length >= 1, 'the page has its renderer');
      assert.deepEqual(renderers.filter((p) => p.args.includes('--top-chrome-webui')).map((p) => p.pid), [], "no renderer of Chromium's own pages");
      await context.close();
    }
  });
});
