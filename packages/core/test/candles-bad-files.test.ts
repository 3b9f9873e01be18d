import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CandleFileError } from '@bt/core/candles';
import { readCandlesFile } from '@bt/core/node';

const dir = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'bad');
const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as Record<string, {
  what: string;
  options?: Record<string, string>;
  problems: { code: string; line: number; column?: string; message: string }[];
  omitted: number;
}>;

test('fixtures/bad holds at least 25 malformed files, each listed in expected.json', () => {
  const files = readdirSync(dir).filter((f) => f !== 'expected.json').sort();
  assert.ok(files.length >= 25, `${files.length} files`);
  assert.deepEqual(files, Object.keys(expected).sort());
});

for (const [file, want] of Object.entries(expected)) {
  test(`bad/${file} is refused: ${want.what}`, async () => {
    const error = await readCandlesFile(join(dir, file), want.options).then(
      () => assert.fail(`${file} loaded`),
      (e: unknown) => e,
    );
    assert.ok(error instanceof CandleFileError, String(error));
    const got = error.problems.map(({ code, line, column, message }) => ({ code, line, ...(column === undefined ? {} : { column }), message }));
    assert.deepEqual(got, want.problems);
    assert.equal(error.omitted, want.omitted);
    for (const p of error.problems) assert.ok(p.fix.length > 10, `${p.code} has a fix`);
    assert.ok(error.message.startsWith(join(dir, file)), 'the message names the file');
  });
}
