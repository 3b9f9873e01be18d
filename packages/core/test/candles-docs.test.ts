import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CANDLE_ERROR_CODES, CANDLE_WARNING_CODES } from '@bt/core/candles';

const root = join(import.meta.dirname, '..', '..', '..');
const doc = readFileSync(join(root, 'docs', 'csv-format.md'), 'utf8');
const expected = JSON.parse(readFileSync(join(root, 'fixtures', 'bad', 'expected.json'), 'utf8')) as Record<string, { problems: { code: string }[] }>;

test('docs/csv-format.md documents every error and warning code in its tables', () => {
  for (const code of [...CANDLE_ERROR_CODES, ...CANDLE_WARNING_CODES]) assert.match(doc, new RegExp(`^\\| \`${code}\` \\|`, 'm'), code);
});

test('every error code has a malformed fixture in fixtures/bad', () => {
  const covered = new Set(Object.values(expected).flatMap((e) => e.problems.map((p) => p.code)));
  assert.deepEqual(CANDLE_ERROR_CODES.filter((code) => !covered.has(code)), []);
});
