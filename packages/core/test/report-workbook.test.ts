import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as zlib from 'node:zlib';
import ExcelJS from 'exceljs';
import { computeStatistics, goldenHoursText } from '@bt/core/stats';
import {
  buildReport,
  openWorkbook,
  readWorkbookMeta,
  readWorkbookSheet,
  reportSheets,
  WorkbookSheetNotFoundError,
  nodeDeflater,
  type ConfigEntry,
  type Deflater,
  type ReportCell,
} from '@bt/core/report';
import { PERCENT_LABELS, SHEET_NAMES } from '@bt/core/format';
import { makeTrades } from './trade-factory.js';

const TRADES = makeTrades([
  { at: '2024-01-08T08:00:00Z', path: 'tp2', side: 'buy' },
  { at: '2024-01-08T09:05:00Z', path: 'sl', side: 'sell', ambiguous: true, resolvedTp1Result: 'win', resolvedTp2Result: 'loss' },
  { at: '2024-01-08T10:10:00Z', path: 'sl', side: 'buy' },
  { at: '2024-01-09T14:00:00Z', path: 'tp1sl', side: 'sell' },
  { at: '2024-01-09T15:30:00Z', path: 'sl', side: 'buy', ambiguous: true },
  { at: '2024-01-10T18:00:00Z', path: 'tp2', side: 'sell', rr1: 1.5, rr2: 3 },
  { at: '2024-01-10T19:45:00Z', path: 'tp1open', side: 'sell' },
  { at: '2024-01-11T23:55:00Z', path: 'open', side: 'buy' },
]);

const CONFIG: ConfigEntry[] = [
  { metric: 'strategy', value: 'ob_pullback_pure_rsi' },
  { metric: 'symbol', value: 'EURUSD' },
  { metric: 'timeframe', value: 'M5' },
  { metric: 'sl_mode', value: 'external' },
  { metric: 'sl_pips', value: 10 },
  { metric: 'tp1_pips', value: 10 },
  { metric: 'allow_multiple_entries', value: false },
  { metric: 'min_overlap_ratio', value: null },
  { metric: 'note', value: 'quotes " & <tags> \u0001 gone' },
  { metric: 'run_id', value: 'r-42' },
];

const STATISTICS = computeStatistics(TRADES);
const CREATED = Date.parse('2024-02-01T12:00:00Z');
const BYTES = await buildReport({ config: CONFIG, statistics: STATISTICS, trades: TRADES, pipSize: 0.0001, createdAt: CREATED });

/** What a cell reads back as: dates become ISO 8601 strings; XML-forbidden control characters are dropped. */
function expectedCell(cell: ReportCell): ReportCell {
  if (cell instanceof Date) return cell.toISOString();
  if (typeof cell === 'string') return cell.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
  return cell;
}

test('workbook round trip: every sheet reads back with the same headers and values', async () => {
  const specs = reportSheets({ config: CONFIG, statistics: STATISTICS, trades: TRADES, pipSize: 0.0001 });
  const meta = await readWorkbookMeta(BYTES);
  assert.deepEqual(meta.sheets.map((s) => s.name), [...SHEET_NAMES]);
  for (const spec of specs) {
    const sheetMeta = meta.sheets.find((s) => s.name === spec.name)!;
    assert.equal(sheetMeta.rows, spec.rows.length, spec.name);
    assert.deepEqual(sheetMeta.columns, spec.headers, spec.name);
    const page = await readWorkbookSheet(BYTES, spec.name, { limit: 10_000 });
    assert.deepEqual(page.headers, spec.headers, spec.name);
    assert.equal(page.total, spec.rows.length);
    const expected = spec.rows.map((row) => {
      const cells = row.map(expectedCell);
      while (cells.length < spec.headers.length) cells.push(null);
      return cells;
    });
    assert.deepEqual(page.rows, expected, spec.name);
  }
});

test('workbook values: fractions, R figures and UTC dates as computed', async () => {
  const global = await readWorkbookSheet(BYTES, 'Global');
  const row = (label: string) => global.rows.find((r) => r[0] === label)!;
  assert.deepEqual(global.headers, ['Indicateur', 'Valeur', 'Valeur résolue']);
  assert.deepEqual(row('Trades'), ['Trades', 8, 8]);
  assert.deepEqual(row('Winrate TP1'), ['Winrate TP1', 4 / 7, 5 / 7]);
  assert.equal(row('IC95 bas TP1')[1], STATISTICS.global.tp1.winrateCi95![0]);
  assert.deepEqual(row('Premier trade (UTC)'), ['Premier trade (UTC)', '2024-01-08T08:00:00.000Z', '2024-01-08T08:00:00.000Z']);
  assert.equal(row('Espérance TP1 (R)')[1], STATISTICS.global.tp1.expectancyR);

  const hours = await readWorkbookSheet(BYTES, 'Par_Heure');
  assert.equal(hours.total, 24);
  assert.deepEqual(hours.rows.map((r) => r[0]), Array.from({ length: 24 }, (_, h) => h));
  const h9 = hours.rows[9];
  assert.deepEqual(h9.slice(0, 8), [9, 1, 1, 0, 0, 1, 0, 1]);

  const trades = await readWorkbookSheet(BYTES, 'Trades', { limit: 2 });
  assert.equal(trades.total, 8);
  assert.deepEqual(trades.rows[1].slice(0, 4), [2, 'Vente', '2024-01-08T09:00:00.000Z', '2024-01-08T09:05:00.000Z']);
  assert.equal(trades.rows[1][trades.headers.indexOf('Ambigu')], 'Oui');
  assert.equal(trades.rows[1][trades.headers.indexOf('TP1 résolu')], 'Gagné');
  assert.equal(trades.rows[0][trades.headers.indexOf('TP1 résolu')], null);
});

test('Config comes back as metric/value rows, derived rules appended, types kept', async () => {
  const config = await readWorkbookSheet(BYTES, 'Config');
  assert.deepEqual(config.headers, ['metric', 'value']);
  const rows = Object.fromEntries(config.rows.map(([m, v]) => [m, v]));
  assert.equal(rows.sl_pips, 10);
  assert.equal(rows.allow_multiple_entries, false);
  assert.equal(rows.min_overlap_ratio, null);
  assert.equal(rows.note, 'quotes " & <tags>  gone');
  assert.equal(rows.pip_size, 0.0001);
  assert.equal(rows.sessions_utc, 'Asie 00-07, Londres 08-12, Londres/New York 13-16, New York 17-21, Hors session 22-23');
  assert.equal(rows.golden_hours_min_trades, 3);
  assert.equal(rows.golden_hours_utc, goldenHoursText(STATISTICS.goldenHours));
});

test('golden hours: their rank in the last column of Par_Heure and their list in Config, one rule with the statistics', async () => {
  const hours = await readWorkbookSheet(BYTES, 'Par_Heure');
  assert.equal(hours.headers.at(-1), 'Golden hour (rang)');
  const ranked = hours.rows.filter((r) => r.at(-1) !== null).map((r) => [r[0], r.at(-1)]);
  assert.deepEqual(ranked, STATISTICS.goldenHours.golden_hours.map((h, i) => [h.hour, i + 1]));
  const text = (statistics: ReturnType<typeof computeStatistics>) => goldenHoursText(statistics.goldenHours);
  assert.equal(text(computeStatistics([])), 'Aucune heure n’a assez de trades résolus');
  const config = Object.fromEntries((await readWorkbookSheet(await buildReport({ config: [], statistics: computeStatistics([]), trades: [], pipSize: 0.01 }), 'Config')).rows);
  assert.equal(config.golden_hours_utc, 'Aucune heure n’a assez de trades résolus');
});

test('formats: percent cells 0.00%, dates, bold frozen header, column widths, filter on Trades', async () => {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(BYTES as never);
  for (const sheet of workbook.worksheets) {
    const header = sheet.getRow(1);
    header.eachCell((cell) => assert.equal(cell.font?.bold, true, `${sheet.name} ${cell.address} bold`));
    const view = sheet.views[0] as { state?: string; ySplit?: number };
    assert.equal(view.state, 'frozen', sheet.name);
    assert.equal(view.ySplit, 1, sheet.name);
    for (let c = 1; c <= sheet.columnCount; c++) {
      const width = sheet.getColumn(c).width!;
      assert.ok(width >= 6 && width <= 48, `${sheet.name} column ${c} width ${width}`);
    }
  }
  // Tabular sheets: every percent column formatted on every data row.
  for (const name of ['Sessions', 'Par_Heure', 'Jour_Semaine']) {
    const sheet = workbook.getWorksheet(name)!;
    const headers = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
    let checked = 0;
    headers.forEach((header, i) => {
      if (!PERCENT_LABELS.has(header)) return;
      for (let r = 2; r <= sheet.rowCount; r++) {
        const cell = sheet.getRow(r).getCell(i + 1);
        if (cell.value !== null) {
          assert.equal(cell.numFmt, '0.00%', `${name} ${cell.address}`);
          checked++;
        }
      }
    });
    assert.ok(checked > 0, `${name} has percent cells`);
  }
  // Metric/value sheets: the value cells of percent rows.
  const global = workbook.getWorksheet('Global')!;
  let percentRows = 0;
  global.eachRow((row, r) => {
    if (r === 1) return;
    const label = String(row.getCell(1).value);
    if (PERCENT_LABELS.has(label)) {
      assert.equal(row.getCell(2).numFmt, '0.00%', label);
      assert.equal(row.getCell(3).numFmt, '0.00%', label);
      percentRows++;
    } else {
      assert.notEqual(row.getCell(2).numFmt, '0.00%', label);
    }
  });
  assert.equal(percentRows, 7);
  assert.equal(global.getRow(22).getCell(2).numFmt, 'yyyy-mm-dd hh:mm');
  const trades = workbook.getWorksheet('Trades')!;
  assert.equal(trades.getRow(2).getCell(5).numFmt, '0.00000'); // price: one decimal past the pip
  assert.equal(trades.getRow(2).getCell(4).numFmt, 'yyyy-mm-dd hh:mm');
  assert.ok(trades.autoFilter, 'Trades has a filter');
  assert.equal(workbook.creator, 'bt');
  assert.equal(workbook.created.getTime(), CREATED);
});

test('the same input gives the same bytes', async () => {
  const again = await buildReport({ config: CONFIG, statistics: STATISTICS, trades: TRADES, pipSize: 0.0001, createdAt: CREATED });
  assert.deepEqual(again, BYTES);
});

test('sheet buffers are reused safely: a larger workbook in between changes no byte, and a deflater given by the caller keeps every input intact', async () => {
  const many = makeTrades(
    Array.from({ length: 400 }, (_, i) => ({ at: new Date(Date.UTC(2024, 0, 8, 8) + i * 3_600_000).toISOString(), path: i % 3 === 0 ? ('tp2' as const) : ('sl' as const), side: i % 2 ? ('buy' as const) : ('sell' as const) })),
  );
  const big = { config: CONFIG, statistics: computeStatistics(many), trades: many, pipSize: 0.0001, createdAt: CREATED };
  const bigBytes = await buildReport(big);
  assert.ok(bigBytes.length > BYTES.length);
  assert.deepEqual(await buildReport({ config: CONFIG, statistics: STATISTICS, trades: TRADES, pipSize: 0.0001, createdAt: CREATED }), BYTES);
  assert.deepEqual(await buildReport(big), bigBytes);

  // A deflater of the caller's own may keep the arrays it is given: they must never be written over.
  const zlibDeflater = nodeDeflater(zlib);
  const inputs: { data: Uint8Array; copy: Uint8Array }[] = [];
  const keeping: Deflater = {
    deflate(data) {
      inputs.push({ data, copy: data.slice() });
      return zlibDeflater.deflate(data);
    },
  };
  assert.deepEqual(await buildReport({ ...big, deflater: keeping }), bigBytes);
  assert.equal(await buildReport({ config: CONFIG, statistics: STATISTICS, trades: TRADES, pipSize: 0.0001, createdAt: CREATED, deflater: keeping }).then((b) => b.length), BYTES.length);
  assert.ok(inputs.length >= 2 * 7, `${inputs.length} parts deflated`);
  for (const { data, copy } of inputs) assert.deepEqual(data, copy);
});

test('a run without trades still has every sheet and every bucket', async () => {
  const bytes = await buildReport({ config: [], statistics: computeStatistics([]), trades: [], pipSize: 0.01 });
  const meta = await readWorkbookMeta(bytes);
  assert.deepEqual(
    meta.sheets.map((s) => [s.name, s.rows]),
    [['Config', 4], ['Global', 22], ['Sessions', 5], ['Par_Heure', 24], ['Jour_Semaine', 7], ['TP2_Global', 14], ['Trades', 0]],
  );
  const global = await readWorkbookSheet(bytes, 'Global');
  assert.deepEqual(global.headers, ['Indicateur', 'Valeur']);
  assert.deepEqual(global.rows.find((r) => r[0] === 'Winrate TP1'), ['Winrate TP1', null]);
});

test('paging: offset, limit, total; useHeader=false makes the header row 0 of the data', async () => {
  const page = await readWorkbookSheet(BYTES, 'Par_Heure', { offset: 20, limit: 10 });
  assert.deepEqual(page.rows.map((r) => r[0]), [20, 21, 22, 23]);
  assert.equal(page.total, 24);
  assert.equal(page.offset, 20);
  assert.equal(page.limit, 10);
  const raw = await readWorkbookSheet(BYTES, 'Config', { useHeader: 'false', limit: '2' });
  assert.deepEqual(raw.headers, ['A', 'B']);
  assert.deepEqual(raw.rows, [['metric', 'value'], ['strategy', 'ob_pullback_pure_rsi']]);
  assert.equal(raw.total, 15);
  const defaults = await readWorkbookSheet(BYTES, 'trades');
  assert.equal(defaults.sheet, 'Trades');
  assert.equal(defaults.limit, 200);
});

test('reader errors: unknown sheet names the sheets; bad paging; not a workbook', async () => {
  await assert.rejects(readWorkbookSheet(BYTES, 'Resume'), (error: unknown) => {
    assert.ok(error instanceof WorkbookSheetNotFoundError);
    assert.equal(error.message, 'unknown sheet: "Resume" (sheets: Config, Global, Sessions, Par_Heure, Jour_Semaine, TP2_Global, Trades)');
    assert.deepEqual(error.sheets, [...SHEET_NAMES]);
    return true;
  });
  await assert.rejects(readWorkbookSheet(BYTES, 'Global', { offset: -1 }), /invalid offset: -1/);
  await assert.rejects(readWorkbookSheet(BYTES, 'Global', { limit: 0 }), /invalid limit: 0/);
  await assert.rejects(readWorkbookSheet(BYTES, 'Global', { limit: 'ten' }), /invalid limit: ten/);
  await assert.rejects(readWorkbookSheet(BYTES, 'Global', { useHeader: 'maybe' }), /invalid useHeader: maybe/);
  await assert.rejects(readWorkbookMeta(new TextEncoder().encode('not a zip')), /invalid workbook/);
});

test('report input is checked: config rows and pip size', async () => {
  const base = { statistics: STATISTICS, trades: TRADES, pipSize: 0.0001 };
  await assert.rejects(buildReport({ ...base, config: [{ metric: 'a', value: 1 }, { metric: 'a', value: 2 }] }), /invalid config: duplicate metric a/);
  await assert.rejects(buildReport({ ...base, config: [{ metric: 'params', value: { x: 1 } as never }] }), /invalid config value for params/);
  await assert.rejects(buildReport({ ...base, config: [{ metric: ' ', value: 1 }] }), /invalid config metric: " " \(row 1\)/);
  await assert.rejects(buildReport({ ...base, config: [], pipSize: 0 }), /invalid pipSize: 0/);
});

test('text round trips exactly (line breaks, spaces, accents); Excel limits are enforced', async () => {
  const text = '  Ligne 1\r\nLigne 2 — é ü 中 \t fin  ';
  const bytes = await buildReport({ config: [{ metric: 'comment', value: text }], statistics: STATISTICS, trades: TRADES, pipSize: 0.0001 });
  const config = await readWorkbookSheet(bytes, 'Config');
  assert.equal(config.rows[0][1], text);
  await assert.rejects(
    buildReport({ config: [{ metric: 'comment', value: 'x'.repeat(40_000) }], statistics: STATISTICS, trades: TRADES, pipSize: 0.0001 }),
    /invalid cell Config!B2: 40000 characters \(Excel allows 32767\)/,
  );
});

test('openWorkbook parses once and answers meta and pages like the one-shot readers', async () => {
  const book = await openWorkbook(BYTES);
  assert.deepEqual(book.sheetNames, [...SHEET_NAMES]);
  assert.deepEqual(book.meta(), await readWorkbookMeta(BYTES));
  assert.deepEqual(book.sheet('Par_Heure', { offset: 3, limit: 4 }), await readWorkbookSheet(BYTES, 'Par_Heure', { offset: 3, limit: 4 }));
  assert.deepEqual(book.sheet('Config', { useHeader: false }), await readWorkbookSheet(BYTES, 'Config', { useHeader: false }));
  assert.throws(() => book.sheet('Nope'), WorkbookSheetNotFoundError);
});
