import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PARAMS, STRATEGIES, SYMBOLS } from '@bt/core/catalogue';

// The docs tables are written by hand; these checks keep them from drifting from the catalogue.
const docs = (name: string) => readFileSync(new URL(`../../../docs/${name}`, import.meta.url), 'utf8');

test('docs/catalogue.md lists every symbol with its label, class and pip size, and every strategy', () => {
  const text = docs('catalogue.md');
  // Pip sizes as decimals, never in exponent form (XRP-ETH's 0.0000001).
  const decimal = (n: number) => n.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
  for (const s of SYMBOLS) assert.ok(text.includes(`| ${s.symbol} | ${s.label} | ${s.assetClass} | ${decimal(s.pipSize)} |`), s.symbol);
  for (const s of STRATEGIES) {
    const row = `| \`${s.key}\` | ${s.label} | ${s.family} | ${s.entryMode} | ${s.filters.join(', ') || '—'} |`;
    assert.ok(text.includes(row), s.key);
  }
});

test('docs/catalogue.md gives every symbol’s typical spread (null: none published)', () => {
  const text = docs('catalogue.md');
  for (const s of SYMBOLS) {
    assert.ok(text.includes(`| ${s.symbol} | ${s.typicalSpreadPips ?? ''} | `), s.symbol);
    assert.ok(s.typicalSpreadPips === null || (s.typicalSpreadPips > 0 && s.typicalSpreadPips < 100), s.symbol);
  }
  assert.equal(SYMBOLS.find((s) => s.symbol === 'EURUSD')!.typicalSpreadPips, 1.3);
  assert.equal(SYMBOLS.find((s) => s.symbol === 'XAUUSD')!.typicalSpreadPips, 4.1, '0.41 USD at a 0.1 pip');
});

test('docs/parameters.md lists every parameter with its label', () => {
  const text = docs('parameters.md');
  for (const p of PARAMS) {
    const row = text.split('\n').find((line) => line.startsWith(`| \`${p.name}\` |`));
    assert.ok(row, p.name);
    assert.ok(row.includes(`| ${p.label} | ${p.level} |`), `${p.name}: ${row}`);
    if (p.default !== undefined) assert.ok(row.includes(String(p.default)), `${p.name} default`);
  }
});
