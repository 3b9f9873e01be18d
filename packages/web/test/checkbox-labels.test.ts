/**
 * A checkbox and its words sit on one line: its label carries the `check` class (styles.css
 * `label.check`). Without it the app-wide `label` rule (a column) puts the box alone above its
 * text, centred in a flex label (the custom-CSV form's 'Utiliser la colonne Spread du fichier…'
 * was drawn so, the box stretched to the card's width at 375 px).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const src = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : name.endsWith('.tsx') ? [path] : [];
  });
}

/** A label whose first child is a checkbox: `<label …>` then `<input type="checkbox"`. */
const CHECKBOX_LABEL = /<label\b([^>]*)>\s*<input\s+type="checkbox"/g;

describe('checkbox labels', () => {
  it('every label wrapping a checkbox has the check class', () => {
    const wrong: string[] = [];
    let seen = 0;
    for (const path of files(src)) {
      for (const match of readFileSync(path, 'utf8').matchAll(CHECKBOX_LABEL)) {
        seen += 1;
        const classes = /className="([^"]*)"/.exec(match[1])?.[1].split(/\s+/) ?? [];
        if (!classes.includes('check')) wrong.push(`${relative(src, path)}: <label${match[1]}>`);
      }
    }
    assert.ok(seen >= 3, `the checkbox labels are found (${seen})`);
    assert.deepEqual(wrong, []);
  });
});
