// Benchmark of the full run with its workbook (the 250 ms target), of statistics, workbook
// writing and reading on synthetic trade lists, and of the writers compared (ours in Node and in
// the browser's way, exceljs). Owns the `stats-report` section of docs/PERFORMANCE.md. Run:
//   npx tsx --conditions=@bt/source bench/stats-report.bench.ts   (or: npm run bench -w @bt/core -- stats-report)
import { cpus, loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import ExcelJS from 'exceljs';
import { runBacktest, STRATEGIES, type Outcome, type TargetResult, type Trade } from '@bt/core';
import { computeStatistics, sessionForHour, utcWeekday } from '@bt/core/stats';
import { buildReport, compressionStreamDeflater, openWorkbook, readWorkbookMeta, readWorkbookSheet, reportSheets, workbookRowsText, type SheetSpec } from '@bt/core/report';
import { ownWorkbookText } from '@bt/core/node';
import { forexYearM5 } from './lib/forex-year.js';
import { writeSection } from '../../../scripts/performance-doc.mjs';
import { seededRandom as prng } from '@bt/core/candles';

const RUNS = 7;
const FULL_RUNS = 5;
const TARGET_MS = 250;

/** `n` trades spread over a year of M5 entries, with realistic proportions of each outcome. */
function syntheticTrades(n: number): Trade[] {
  const rand = prng(n);
  const start = Date.UTC(2024, 0, 1);
  const step = Math.floor((365 * 288) / n) * 300_000;
  const trades: Trade[] = [];
  for (let i = 0; i < n; i++) {
    const entryTime = start + i * step + Math.floor(rand() * (step / 300_000)) * 300_000;
    const u = rand();
    const [tp1Result, tp2Result, outcome]: [TargetResult, TargetResult, Outcome] =
      u < 0.25 ? ['win', 'win', 'tp2'] : u < 0.45 ? ['win', 'loss', 'tp1'] : u < 0.5 ? ['win', 'open', 'tp1'] : u < 0.98 ? ['loss', 'loss', 'sl'] : ['open', 'open', 'open'];
    const side = rand() < 0.5 ? 'buy' : 'sell';
    const dir = side === 'buy' ? 1 : -1;
    // Quotes have the symbol's decimals, as the engine's prices do.
    const price = Math.round((1.1 + (rand() - 0.5) * 0.05) * 1e5) / 1e5;
    const hour = new Date(entryTime).getUTCHours();
    const ambiguous = tp1Result === 'loss' && rand() < 0.05;
    trades.push({
      id: i + 1,
      side,
      signalTime: entryTime - 300_000,
      entryTime,
      entryIndex: i * 25,
      orderPrice: price,
      entryPrice: price,
      sl: Math.round((price - dir * 0.001) * 1e5) / 1e5,
      tp1: Math.round((price + dir * 0.001) * 1e5) / 1e5,
      tp2: Math.round((price + dir * 0.002) * 1e5) / 1e5,
      riskPips: 10,
      tp1Result,
      tp2Result,
      outcome,
      tp1Time: tp1Result === 'win' ? entryTime + 900_000 : null,
      tp2Time: tp2Result === 'win' ? entryTime + 1_800_000 : null,
      slTime: tp1Result === 'loss' || tp2Result === 'loss' ? entryTime + 1_200_000 : null,
      mfePips: Math.round(rand() * 250) / 10,
      maePips: Math.round(rand() * 100) / 10,
      rTp1: tp1Result === 'win' ? 1 : tp1Result === 'loss' ? -1 : 0,
      rTp2: tp2Result === 'win' ? 2 : tp2Result === 'loss' ? -1 : 0,
      ambiguous,
      resolvedTp1Result: ambiguous ? (rand() < 0.5 ? 'win' : 'loss') : null,
      resolvedTp2Result: null,
      hour,
      weekday: utcWeekday(entryTime),
      session: sessionForHour(hour),
      spreadPips: 0,
      costPips: 0,
      stopCostPips: 0,
    });
  }
  return trades;
}

const mid = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Median wall time and median process CPU time (all threads: zlib runs on the thread pool), in ms.
 * No forced GC between runs: a server runs back to back in a warm heap, while a run right after
 * global.gc() starts from a shrunk heap and measured about twice as slow.
 */
async function measure(runs: number, task: () => unknown | Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const walls: number[] = [];
  const cpuTimes: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await task();
    walls.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpuTimes.push((c.user + c.system) / 1000);
  }
  return { wall: mid(walls), cpu: mid(cpuTimes) };
}

const fmt = (x: number, d = 1) => x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
const kib = (bytes: number) => `${fmt(bytes / 1024, 0)} KiB`;

const CONFIG = [
  { metric: 'strategy', value: 'fvg_pullback_multi' },
  { metric: 'symbol', value: 'EURUSD' },
  { metric: 'timeframe', value: 'M5' },
  { metric: 'sl_mode', value: 'external' },
  { metric: 'sl_pips', value: 10 },
];

/** `runBacktest(..., { workbook: true })` on one M5 year, every strategy. */
async function fullRuns(): Promise<{ rows: string[]; worst: { key: string; wall: number } }> {
  const year = forexYearM5();
  const rows: string[] = [];
  let worst = { key: '', wall: 0 };
  for (const s of STRATEGIES) {
    const request = { strategy: s.key, symbol: 'EURUSD', slPips: 10, tp1Pips: 10, tp2Pips: 20 };
    await runBacktest(year, request, { workbook: true, createdAt: 0 }); // warm-up
    const engine: number[] = [];
    const report: number[] = [];
    let trades = 0;
    let size = 0;
    const t = await measure(FULL_RUNS, async () => {
      const r = await runBacktest(year, request, { workbook: true, createdAt: 0 });
      engine.push(r.timing.engine_ms);
      report.push(r.timing.report_ms);
      trades = r.trades.length;
      size = r.workbook?.length ?? 0;
    });
    if (t.wall > worst.wall) worst = { key: s.key, wall: t.wall };
    rows.push(`| ${s.key} | ${fmt(trades, 0)} | ${fmt(t.wall)} | ${fmt(t.cpu)} | ${fmt(mid(engine))} | ${fmt(mid(report))} | ${kib(size)} |`);
    process.stderr.write(`full ${s.key}: ${fmt(t.wall)} ms\n`);
  }
  return { rows, worst };
}

/** The same workbook written by exceljs: bold frozen header, widths, number formats, filter on Trades. */
async function exceljsWorkbook(sheets: readonly SheetSpec[]): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'bt';
  for (const spec of sheets) {
    const sheet = workbook.addWorksheet(spec.name, { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = spec.headers.map((header, c) => ({ header, width: Math.max(6, Math.min(48, header.length + 3)), style: spec.columnFormats?.[c] ? { numFmt: spec.columnFormats[c]! } : {} }));
    sheet.getRow(1).font = { bold: true };
    spec.rows.forEach((row, r) => {
      const added = sheet.addRow([...row]);
      const format = spec.rowFormats?.[r];
      if (format) for (let c = 2; c <= row.length; c++) added.getCell(c).numFmt = format;
    });
    if (spec.name === 'Trades') sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: spec.headers.length } };
  }
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

export async function benchStatsReport(): Promise<string> {
  const load = loadavg()[0];
  const started = Date.now();

  const full = await fullRuns();

  const rows: string[] = [];
  for (const n of [1_000, 3_000, 10_000]) {
    const trades = syntheticTrades(n);
    await buildReport({ config: CONFIG, statistics: computeStatistics(trades), trades, pipSize: 0.0001 }); // warm-up
    const stats = await measure(RUNS, () => computeStatistics(trades));
    const statistics = computeStatistics(trades);
    let bytes: Uint8Array = new Uint8Array();
    const write = await measure(RUNS, async () => {
      bytes = await buildReport({ config: CONFIG, statistics, trades, pipSize: 0.0001 });
    });
    const meta = await measure(n > 3_000 ? 3 : RUNS, () => readWorkbookMeta(bytes));
    const sheet = await measure(n > 3_000 ? 3 : RUNS, () => readWorkbookSheet(bytes, 'Par_Heure'));
    const book = await openWorkbook(bytes);
    const cached = await measure(RUNS, () => book.sheet('Trades', { offset: 100, limit: 200 }));
    rows.push(`| ${fmt(n, 0)} | ${fmt(stats.wall, 2)} | ${fmt(write.wall)} (CPU ${fmt(write.cpu, 0)}) | ${kib(bytes.length)} | ${fmt(meta.wall, 0)} | ${fmt(sheet.wall, 0)} | ${fmt(cached.wall, 2)} |`);
    process.stderr.write(`${n} trades done\n`);
  }

  // The writers compared on one 10,000-trade workbook.
  const trades = syntheticTrades(10_000);
  const statistics = computeStatistics(trades);
  const input = { config: CONFIG, statistics, trades, pipSize: 0.0001, createdAt: 0 };
  const sizes: Record<string, number> = {};
  const node = await measure(RUNS, async () => (sizes.node = (await buildReport(input)).length));
  await buildReport({ ...input, deflater: compressionStreamDeflater });
  const browser = await measure(RUNS, async () => (sizes.browser = (await buildReport({ ...input, deflater: compressionStreamDeflater })).length));
  const sheets = reportSheets(input);
  const exceljs = await measure(3, async () => (sizes.exceljs = (await exceljsWorkbook(sheets)).length));
  process.stderr.write('writers compared\n');

  // What the server keeps of a result (each row as JSON text): core's scanner against exceljs.
  const written = await buildReport(input);
  const ownRead = await measure(RUNS, () => ownWorkbookText(written));
  const exceljsRead = await measure(3, () => workbookRowsText(written));
  process.stderr.write('readers compared\n');

  const peak = process.resourceUsage().maxRSS * 1024;
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return [
    '## Statistics and workbook',
    '',
    '`npm run bench -w @bt/core -- stats-report` (or `npx tsx --conditions=@bt/source bench/stats-report.bench.ts` in packages/core) rewrites this section.',
    `Machine: ${cpu}, ${cpus().length} cores shared with other work (1-minute load average ${fmt(load)} at the start, ${fmt(loadavg()[0])} at the end), Node ${process.version}, ${new Date(started).toISOString().slice(0, 10)}.`,
    'Wall times are medians after a warm-up run, in a warm heap (no forced GC between runs); CPU is the process\'s (all threads: zlib deflates on the thread pool).',
    '',
    '### The 250 ms target: full run with workbook, one year of M5 (74,880 candles)',
    '',
    `\`runBacktest(..., { workbook: true })\` per strategy, median of ${FULL_RUNS}: parameters, indicators, detection, simulation, statistics and the XLSX bytes`,
    '(synthetic forex year of bench/lib/forex-year.ts, SL 10 / TP1 10 / TP2 20 pips). `engine_ms` and `report_ms` are the medians of the result\'s own timing.',
    '',
    '| strategy | trades | median ms | CPU ms | engine_ms | report_ms | workbook |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...full.rows,
    '',
    `Slowest full run: ${full.worst.key}, ${fmt(full.worst.wall)} ms (target: at most ${TARGET_MS} ms).`,
    '',
    '### Statistics, workbook writing and reading',
    '',
    'Synthetic trades spread over one year of M5 entries (27 columns on the Trades sheet).',
    '',
    '| trades | computeStatistics (ms) | buildReport (ms) | workbook size | readWorkbookMeta (ms) | readWorkbookSheet Par_Heure (ms) | 200 Trades rows from an openWorkbook (ms) |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    'The one-shot readers parse the whole workbook with exceljs on every call; `openWorkbook` parses once and then',
    'serves meta and pages from memory (what a server should cache per result folder).',
    '',
    '### Writers compared, the same 10,000-trade workbook',
    '',
    '| writer | median ms | CPU ms | size |',
    '|---|---:|---:|---:|',
    `| buildReport in Node (zlib level 1, Trades deflated in pieces on the thread pool while written) | ${fmt(node.wall)} | ${fmt(node.cpu)} | ${kib(sizes.node)} |`,
    `| buildReport with CompressionStream (the browser path, level 6) | ${fmt(browser.wall)} | ${fmt(browser.cpu)} | ${kib(sizes.browser)} |`,
    `| exceljs \`writeBuffer\` (same sheets, formats, widths, frozen bold header; median of 3) | ${fmt(exceljs.wall, 0)} | ${fmt(exceljs.cpu, 0)} | ${kib(sizes.exceljs)} |`,
    '',
    'Why the writer is hand-written: docs/report.md, §2 "How it is written".',
    '',
    '### Readers compared, the same 10,000-trade workbook read to each row\'s JSON text (what the server keeps)',
    '',
    '| reader | median ms | CPU ms |',
    '|---|---:|---:|',
    `| \`ownWorkbookText\` (core's scanner of bt's own workbooks) | ${fmt(ownRead.wall)} | ${fmt(ownRead.cpu)} |`,
    `| exceljs: \`workbookRowsText\`, \`workbookRows\` then \`JSON.stringify\` per row (median of 3; the fallback for any other workbook) | ${fmt(exceljsRead.wall, 0)} | ${fmt(exceljsRead.cpu, 0)} |`,
    '',
    'Why: docs/report.md, §3 "Reading a result back".',
    `Peak RSS of this benchmark: ${fmt(peak / 1048576, 0)} MiB.`,
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const body = await benchStatsReport();
  console.log(body);
  writeSection('stats-report', body);
  console.log('\nwritten to docs/PERFORMANCE.md (section stats-report)');
}
