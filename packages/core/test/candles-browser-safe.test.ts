import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = join(import.meta.dirname, '..', 'src', 'candles');
const sources = readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => [f, readFileSync(join(dir, f), 'utf8')] as const);

test('src/candles imports no Node built-in (it runs in the browser)', () => {
  for (const [file, text] of sources) {
    assert.doesNotMatch(text, /from ['"](node:|fs|path|os|stream|buffer)['"/]/, file);
    assert.doesNotMatch(text, /\bBuffer\./, `${file} uses Buffer`);
  }
});

test('exceljs is loaded on first use only, so the CSV path stays light in a browser bundle', () => {
  for (const [file, text] of sources) {
    for (const line of text.split('\n').filter((l) => /from ['"]exceljs['"]/.test(l))) assert.match(line, /^import type /, `${file}: ${line}`);
  }
});
