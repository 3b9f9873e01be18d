// bt convert and bt enrich write at most 200,000 candles to an .xlsx file (src/paths.ts
// MAX_XLSX_CANDLES): exceljs builds the workbook in memory at about 10 KB a row, and a million M1
// candles ran past 300 s and 3.7 GB. Past it, exit 1 before the writer starts, naming the formats
// that take any size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bt, tempDir } from './helpers.js';

test('an .xlsx output of more than 200,000 candles is refused at once; .arrow takes them', async () => {
  const tmp = tempDir();
  try {
    const n = 200_001;
    const t0 = Date.UTC(2015, 0, 5);
    const rows = Array.from({ length: n }, (_, i) => `${new Date(t0 + i * 60_000).toISOString().slice(0, 19).replace('T', ' ')}+00:00,1.1,1.2,1.0,1.1,5`);
    const data = join(tmp.dir, 'EURUSD_M1_2015.csv');
    writeFileSync(data, `Datetime,Open,High,Low,Close,Volume\n${rows.join('\n')}\n`);
    const why = (out: string) => `bt: cannot write ${out}: 200,001 candles, more than the 200,000 bt writes to a workbook (it is built in memory, about 10 KB a row): write .csv, .arrow or .json instead\n`;
    const out = join(tmp.dir, 'out.xlsx');
    const started = Date.now();
    assert.deepEqual(await bt(['convert', data, out]), { code: 1, stdout: '', stderr: why(out) });
    assert.deepEqual(await bt(['enrich', data, '-o', out]), { code: 1, stdout: '', stderr: why(out) });
    const refused = Date.now() - started;
    assert.ok(!existsSync(out));
    const arrowStarted = Date.now();
    const arrow = await bt(['convert', data, join(tmp.dir, 'out.arrow')]);
    const converted = Date.now() - arrowStarted;
    assert.equal(arrow.code, 0, arrow.stderr);
    // "At once" against the same machine's own pace, not a fixed bound (30 s could fail on the
    // loaded CI machine): each refusal reads the file as the .arrow conversion does, and a workbook
    // of 200,001 rows built first would take gigabytes and minutes.
    assert.ok(refused < 4 * converted + 10_000, `refused in ${refused} ms (two runs), converted to .arrow in ${converted} ms`);
    assert.match(arrow.stdout, /200,001 candles M1 EURUSD/);
  } finally {
    tmp.remove();
  }
});
