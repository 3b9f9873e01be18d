/**
 * No emoji or pictograph stands in for an icon anywhere in the web app's source, including the
 * states a browser test does not reach (error messages, dialogs): icons are lucide-react SVGs,
 * since emoji draw as empty boxes where no colour-emoji font is installed. The browser side of
 * the same rule is e2e/every-route.test.ts, which scans each rendered route.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const src = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

/** Extended_Pictographic, and the dingbats used as marks (★ ☆ ✓ ✕–✘ ⬡ ⬢); ©, ® and ™ are typography. */
const PICTOGRAPH = /[\p{Extended_Pictographic}\u2605\u2606\u2713\u2715-\u2718\u2B21\u2B22](?<![\u00A9\u00AE\u2122])/u;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.(tsx?|css|html)$/.test(name) ? [path] : [];
  });
}

describe('icons are SVG, never emoji', () => {
  it('no pictograph in packages/web/src', () => {
    const found: string[] = [];
    const all = files(src);
    assert.ok(all.length > 50, `the source tree is read (${all.length} files)`);
    for (const path of all) {
      readFileSync(path, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (PICTOGRAPH.test(line)) found.push(`${relative(src, path)}:${i + 1}: ${line.trim()}`);
        });
    }
    assert.deepEqual(found, []);
  });

  it('the rule tells emoji from typography', () => {
    for (const icon of ['📌', '⏰', '📊', '✨', '📥', '🎉', '⚠️', '⏱', '❌', '★', '✓', '⬢', '🔥']) assert.ok(PICTOGRAPH.test(icon), icon);
    for (const text of ['©', '®', '™', '→', '↓', '×', '…', '€', '≥', '·']) assert.ok(!PICTOGRAPH.test(text), text);
  });
});
