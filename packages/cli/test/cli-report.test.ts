// bt report: a result workbook's sheets through core's reader, with the display rules.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readWorkbookSheet } from '@bt/core/report';
import { bt, EURUSD_H1, tempDir, mapLimit } from './helpers.js';

const tmp = tempDir();
let workbook = '';

before(async () => {
  const r = await bt(['backtest', '--data', EURUSD_H1, '--strategy', 'ob_pullback_pure', '--sl', '20', '--tp1', '20', '--out', tmp.dir]);
  assert.equal(r.code, 0, r.stderr);
  workbook = r.stdout.match(/\nWorkbook: (.+)\n$/)![1];
});
after(() => tmp.remove());

test('every sheet, each headed by its name and row count, percent cells shown as percentages', async () => {
  const r = await bt(['report', workbook]);
  assert.equal(r.code, 0, r.stderr);
  for (const [sheet, rows] of [['Config', null], ['Global', 22], ['Sessions', 5], ['Par_Heure', 24], ['Jour_Semaine', 7], ['TP2_Global', 14], ['Trades', 501]] as const) {
    assert.match(r.stdout, new RegExp(`^${sheet} \\((${rows ?? '\\d+'}) rows\\)$`, 'm'), sheet);
  }
  assert.match(r.stdout, /^  Winrate TP1 +43\.51%$/m);
  assert.match(r.stdout, /^  … rows 1-200 of 501 \(--offset 200 for more\)$/m);
});

test('--sheet, --offset, --limit and --json (cells as stored, the same as core\'s reader)', async () => {
  const r = await bt(['report', workbook, '--sheet', 'trades', '--offset', '10', '--limit', '5', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const json = JSON.parse(r.stdout);
  assert.equal(json.command, 'report');
  assert.deepEqual(json.sheets, [await readWorkbookSheet(readFileSync(workbook), 'Trades', { offset: 10, limit: 5 })]);
  const text = await bt(['report', workbook, '--sheet', 'Par_Heure', '--limit', '3']);
  assert.equal(text.stdout.split('\n')[0], 'Par_Heure (24 rows)');
  assert.match(text.stdout, /\n  … rows 1-3 of 24 \(--offset 3 for more\)\n$/);
});

test('bad input: unknown sheet and bad paging are usage errors; missing or non-workbook files exit 1', async () => {
  const notXlsx = join(tmp.dir, 'fake.xlsx');
  writeFileSync(notXlsx, 'Datetime,Open\n');
  const cases: [string[], number, string][] = [
    [[workbook, '--sheet', 'Heures'], 2, 'bt: invalid --sheet: "Heures" (sheets: Config, Global, Sessions, Par_Heure, Jour_Semaine, TP2_Global, Trades)\n'],
    [[workbook, '--limit', '0'], 2, 'bt: invalid --limit: "0" (expected a whole number from 1 to 10000)\n'],
    [[workbook, '--offset', '-1'], 2, 'bt: invalid --offset: "-1" (expected a whole number from 0 to 9007199254740991)\n'],
    [[join(tmp.dir, 'none.xlsx')], 1, `bt: cannot read ${join(tmp.dir, 'none.xlsx')}: no such file\n`],
    [[tmp.dir], 1, `bt: cannot read ${tmp.dir}: it is a directory\n`],
  ];
  const runs = await mapLimit(cases, 4, ([args]) => bt(['report', ...args]));
  cases.forEach(([args, code, stderr], i) => assert.deepEqual(runs[i], { code, stdout: '', stderr }, args.join(' ')));
  const fake = await bt(['report', notXlsx]);
  assert.equal(fake.code, 1);
  assert.equal(fake.stderr, `bt: ${notXlsx}: invalid workbook: not a zip archive, as an .xlsx workbook is (a CSV or another file renamed?)\n`);
  writeFileSync(notXlsx, '');
  assert.deepEqual(await bt(['report', notXlsx]), { code: 1, stdout: '', stderr: `bt: ${notXlsx}: invalid workbook: the file is empty\n` });
});
