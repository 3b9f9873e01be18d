// Benchmark of statistics, workbook writing and workbook reading on synthetic trade lists.
// Owns the `stats-report` section of docs/PERFORMANCE.md. Run:
//   npx tsx --conditions=@bt/source bench/stats-report.bench.ts   (or npm run bench: every bench/*.bench.ts)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ExcelJS from 'exceljs';
import type { Outcome, TargetResult, Trade } from '@bt/core';
import { computeStatistics, sessionForHour, utcWeekday } from '@bt/core/stats';
import { buildReport, openWorkbook, readWorkbookMeta, readWorkbookSheet, reportSheets } from '@bt/core/report';

const RUNS = 7;

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
    const price = 1.1 + (rand() - 0.5) * 0.05;
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
      sl: price - dir * 0.001,
      tp1: price + dir * 0.001,
      tp2: price + dir * 0.002,
      riskPips: 10,
      tp1Result,
      tp2Result,
      outcome,
      tp1Time: tp1Result === 'win' ? entryTime + 900_000 : null,
      tp2Time: tp2Result === 'win' ? entryTime + 1_800_000 : null,
      slTime: tp1Result === 'loss' || tp2Result === 'loss' ? entryTime + 1_200_000 : null,
      mfePips: rand() * 25,
      maePips: rand() * 10,
      rTp1: tp1Result === 'win' ? 1 : tp1Result === 'loss' ? -1 : 0,
      rTp2: tp2Result === 'win' ? 2 : tp2Result === 'loss' ? -1 : 0,
      ambiguous,
      resolvedTp1Result: ambiguous ? (rand() < 0.5 ? 'win' : 'loss') : null,
      resolvedTp2Result: null,
      hour,
      weekday: utcWeekday(entryTime),
      session: sessionForHour(hour),
    });
  }
  return trades;
}

/** Median wall time and median process CPU time (all threads: zlib runs on the thread pool), in ms. */
async function measure(runs: number, task: () => unknown | Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await task();
    walls.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpus.push((c.user + c.system) / 1000);
  }
  const mid = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return { wall: mid(walls), cpu: mid(cpus) };
}

async function median(runs: number, task: () => unknown | Promise<unknown>): Promise<number> {
  return (await measure(runs, task)).wall;
}

const CONFIG = [
  { metric: 'strategy', value: 'fvg_pullback_multi' },
  { metric: 'symbol', value: 'EURUSD' },
  { metric: 'timeframe', value: 'M5' },
  { metric: 'sl_mode', value: 'external' },
  { metric: 'sl_pips', value: 10 },
];

export async function benchStatsReport(): Promise<string> {
  const rows: string[] = [];
  const load = loadavg()[0];
  let peak = process.memoryUsage().rss;
  for (const n of [1_000, 3_000, 10_000]) {
    const trades = syntheticTrades(n);
    await buildReport({ config: CONFIG, statistics: computeStatistics(trades), trades, pipSize: 0.0001 }); // warm-up
    const stats = await median(RUNS, () => computeStatistics(trades));
    const statistics = computeStatistics(trades);
    let bytes: Uint8Array = new Uint8Array();
    const write = await measure(RUNS, async () => {
      bytes = await buildReport({ config: CONFIG, statistics, trades, pipSize: 0.0001 });
    });
    const meta = await median(RUNS, () => readWorkbookMeta(bytes));
    const sheet = await median(RUNS, () => readWorkbookSheet(bytes, 'Par_Heure'));
    const book = await openWorkbook(bytes);
    const cached = await median(RUNS, () => book.sheet('Trades', { offset: 100, limit: 200 }));
    peak = Math.max(peak, process.memoryUsage().rss);
    rows.push(`| ${n.toLocaleString('en-US')} | ${stats.toFixed(2)} | ${write.wall.toFixed(1)} (CPU ${write.cpu.toFixed(0)}) | ${(bytes.length / 1024).toFixed(0)} KiB | ${meta.toFixed(0)} | ${sheet.toFixed(0)} | ${cached.toFixed(2)} |`);
  }
  // Reference: the same 3,000-trade workbook written by exceljs (what report/xlsx.ts replaced).
  const trades = syntheticTrades(3_000);
  const sheets = reportSheets({ config: CONFIG, statistics: computeStatistics(trades), trades, pipSize: 0.0001 });
  const exceljs = await median(3, async () => {
    const workbook = new ExcelJS.Workbook();
    for (const spec of sheets) {
      const sheet = workbook.addWorksheet(spec.name, { views: [{ state: 'frozen', ySplit: 1 }] });
      sheet.addRow([...spec.headers]).font = { bold: true };
      for (const row of spec.rows) sheet.addRow([...row]);
    }
    await workbook.xlsx.writeBuffer();
  });
  peak = Math.max(peak, process.memoryUsage().rss);
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return [
    '## Statistics and workbook',
    '',
    `Synthetic trades spread over one year of M5 entries (27 columns on the Trades sheet). Median of ${RUNS} runs after a warm-up,`,
    `single process, ${cpu} (${cpus().length} cores shared with other work; 1-minute load average ${load.toFixed(1)} at the start), Node ${process.version}.`,
    '`npx tsx --conditions=@bt/source bench/stats-report.bench.ts` (in packages/core; `npm run bench` runs every benchmark) rewrites this section.',
    '',
    '| trades | computeStatistics (ms) | buildReport (ms) | workbook size | readWorkbookMeta (ms) | readWorkbookSheet Par_Heure (ms) | 200 Trades rows from an openWorkbook (ms) |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    'The one-shot readers parse the whole workbook with exceljs on every call; `openWorkbook` parses once and then',
    'serves meta and pages from memory (what a server should cache per result folder).',
    '',
    `Reference: exceljs \`writeBuffer\` for the same 3,000-trade workbook takes ${exceljs.toFixed(0)} ms (median of 3), which is why`,
    'buildReport writes SpreadsheetML itself and deflates natively (CompressionStream); exceljs still does all reading.',
    `Peak RSS during this benchmark: ${(peak / 1024 / 1024).toFixed(0)} MiB.`,
  ].join('\n');
}

/** Replaces (or appends) this benchmark's section of docs/PERFORMANCE.md. */
function writeSection(body: string): string {
  const file = resolve(dirname(fileURLToPath(import.meta.url)), '../../../docs/PERFORMANCE.md');
  const begin = '<!-- bench:stats-report -->';
  const end = '<!-- /bench:stats-report -->';
  const section = `${begin}\n${body}\n${end}`;
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Performance\n';
  const from = current.indexOf(begin);
  const to = current.indexOf(end);
  const next = from >= 0 && to > from ? current.slice(0, from) + section + current.slice(to + end.length) : `${current.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, next);
  return file;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const body = await benchStatsReport();
  console.log(body);
  console.log(`\nwritten to ${writeSection(body)}`);
}
