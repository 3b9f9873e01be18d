import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CandleFileError, readCandlesCsv } from '@bt/core/candles';

const LONG = 'N'.repeat(2_000_000);

const problemsOf = (csv: string) => {
  try {
    readCandlesCsv(csv);
  } catch (error) {
    assert.ok(error instanceof CandleFileError, String(error));
    return error.problems;
  }
  return assert.fail('loaded');
};

/** Every text field of a problem, bounded: a few hundred characters at most, whatever the file holds. */
function assertShort(problems: readonly { code: string; message: string; fix: string; column?: string; value?: string }[]) {
  for (const p of problems) {
    for (const [field, text] of Object.entries({ message: p.message, fix: p.fix, column: p.column ?? '', value: p.value ?? '' })) {
      assert.ok(text.length < 400, `${p.code}.${field}: ${text.length} characters`);
    }
  }
}

test('a 2 MB column name or cell is cut in every problem, not repeated whole in column, value, message and fix', () => {
  const rows = Array.from({ length: 8 }, (_, i) => `2024-01-02 0${i}:00:00+00:00,1,2,0.5,1.5,10,${i === 0 ? 1 : 'abc'}`).join('\n');
  const extra = problemsOf(`Datetime,Open,High,Low,Close,Volume,${LONG}\n${rows}\n`);
  assert.deepEqual(extra.map((p) => [p.code, p.line]), [2, 3, 4, 5, 6].map((line) => ['non_numeric', line + 1]));
  assert.equal(extra[0].column, `${'N'.repeat(80)}…`);
  assertShort(extra);

  const duplicate = problemsOf(`Datetime,Open,High,Low,Close,Volume,${LONG},${LONG}\n`);
  assert.deepEqual(duplicate.map((p) => p.code), ['duplicate_column']);
  assertShort(duplicate);

  // An alias read through its spaces and underscores: "O____…" stands for Open.
  const alias = problemsOf(`Datetime,O${'_'.repeat(2_000_000)},High,Low,Close,Volume\n`);
  assert.deepEqual(alias.map((p) => p.code), ['wrong_column_name']);
  assertShort(alias);

  const cell = problemsOf(`Datetime,Open,High,Low,Close,Volume\n2024-01-02 00:00:00+00:00,1,2,0.5,x${LONG},10\n`);
  assert.deepEqual(cell.map((p) => [p.code, p.column]), [['non_numeric', 'Close']]);
  assertShort(cell);

  const missing = problemsOf(`${LONG}\n`);
  assertShort(missing);
});

test('a dropped text column with a long name or value gives a short warning', () => {
  const loaded = readCandlesCsv(`Datetime,Open,High,Low,Close,Volume,${LONG}\n2024-01-02 00:00:00+00:00,1,2,0.5,1.5,10,x${LONG}\n2024-01-02 01:00:00+00:00,1,2,0.5,1.5,10,y\n`);
  assert.deepEqual(loaded.warnings.map((w) => w.code), ['dropped_column']);
  assertShort(loaded.warnings);
});
