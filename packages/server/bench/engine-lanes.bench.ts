// Owns the `engine-lanes` section of docs/PERFORMANCE.md. Run: `npm run bench -w @bt/server`.
//
// What a person waits for when the engine threads are busy with queued backtests: a result's
// workbook read for its view and an invoice's PDF, queued behind them (one queue, before
// 2026-12-01) or in the first lane (src/jobs/lanes.ts). And what the lanes cost the backtests.
import { cpus, loadavg } from 'node:os';
import { EnginePool } from '../src/jobs/pool.js';
import { writeSection } from '../../../scripts/performance-doc.mjs';
import { quantile } from './quantile.js';
import { forexYearM5 } from '../../core/bench/lib/forex-year.js';
import { pullbackRequest } from '../test/support/engine-request.js';
import { sampleInvoice } from '../test/support/sample-invoice.js';

const SECTION = 'engine-lanes';
const ROUNDS = 7;
const THREADS = 2;
const QUEUED = 16;

const candles = forexYearM5();
const request = (runSeq: number) => pullbackRequest(candles, 'M5', runSeq, 'bench');

interface Round {
  workbookMs: number;
  invoiceMs: number;
  backtestsMs: number;
}

/** QUEUED backtests, then a workbook and an invoice: when each answers, from its submission. */
async function round(pool: EnginePool, workbook: Uint8Array): Promise<Round> {
  const started = performance.now();
  const runs = Array.from({ length: QUEUED }, (_, i) => pool.run(candles, request(i)));
  const asked = performance.now();
  const since = (promise: Promise<unknown>, from: number) => promise.then(() => performance.now() - from);
  const [workbookMs, invoiceMs, backtestsMs] = await Promise.all([since(pool.workbook(workbook), asked), since(pool.invoicePdf(sampleInvoice()), asked), since(Promise.all(runs), started)]);
  return { workbookMs, invoiceMs, backtestsMs };
}

async function bench(): Promise<string> {
  const load = loadavg()[0];
  const pools = [
    ['one queue (before)', new EnginePool(THREADS, true, false)],
    ['two lanes', new EnginePool(THREADS, true, true)],
  ] as const;
  let workbook: Uint8Array = new Uint8Array();
  let alone = { backtestMs: 0, workbookMs: 0, invoiceMs: 0, trades: 0 };
  for (const [, pool] of pools) {
    // Warm: every thread has run each kind of task once (modules, fonts, JIT).
    for (let i = 0; i < 2; i++) {
      const output = await Promise.all(Array.from({ length: THREADS }, (_, k) => pool.run(candles, request(k))));
      workbook = output[0].workbook;
      alone.trades = output[0].result.counts.trades ?? 0;
      await Promise.all(Array.from({ length: THREADS }, () => Promise.all([pool.workbook(workbook), pool.invoicePdf(sampleInvoice())])));
    }
  }
  // Each task alone on an idle pool: what the waits above are made of.
  const idle = pools[1][1];
  const times = { backtestMs: [] as number[], workbookMs: [] as number[], invoiceMs: [] as number[] };
  for (let i = 0; i < ROUNDS; i++) {
    let t = performance.now();
    await idle.run(candles, request(0));
    times.backtestMs.push(performance.now() - t);
    t = performance.now();
    await idle.workbook(workbook);
    times.workbookMs.push(performance.now() - t);
    t = performance.now();
    await idle.invoicePdf(sampleInvoice());
    times.invoiceMs.push(performance.now() - t);
  }
  alone = { ...alone, backtestMs: quantile(times.backtestMs, 0.5), workbookMs: quantile(times.workbookMs, 0.5), invoiceMs: quantile(times.invoiceMs, 0.5) };

  const samples = new Map<string, Round[]>(pools.map(([label]) => [label, []]));
  for (let r = 0; r < ROUNDS; r++) {
    // Alternated, the order flipped each round, so that both see the same machine.
    const order = r % 2 ? [...pools].reverse() : pools;
    for (const [label, pool] of order) samples.get(label)!.push(await round(pool, workbook));
  }
  for (const [, pool] of pools) await pool.close();

  const rows = pools.map(([label]) => {
    const s = samples.get(label)!;
    const median = (pick: (x: Round) => number) => quantile(s.map(pick), 0.5).toFixed(0);
    const worst = (pick: (x: Round) => number) => Math.max(...s.map(pick)).toFixed(0);
    return `| ${label} | **${median((x) => x.workbookMs)}** (${worst((x) => x.workbookMs)}) | **${median((x) => x.invoiceMs)}** (${worst((x) => x.invoiceMs)}) | ${median((x) => x.backtestsMs)} |`;
  });
  const cpu = cpus();
  return [
    '## Engine threads: what a person waits for behind queued backtests',
    '',
    `${THREADS} engine threads, ${QUEUED} backtests queued at once (one year of M5, 74,880 candles, fvg_pullback_multi, SL 10 / TP1 10 / TP2 20: ${alone.trades.toLocaleString('en-US')} trades and its workbook), then, at once, a result's workbook read for its view (that run's workbook) and an invoice's PDF.`,
    'Times from the request of each to its answer; the backtests: from the first submission to the last answer. "one queue": every task in order of arrival (before 2026-12-01);',
    '"two lanes": the workbook and the invoice go before the backtests still waiting (src/jobs/lanes.ts, docs/server.md "Engine threads").',
    `Each alone on an idle pool: a backtest ${alone.backtestMs.toFixed(0)} ms, the workbook read ${alone.workbookMs.toFixed(0)} ms, the invoice ${alone.invoiceMs.toFixed(0)} ms (medians of ${ROUNDS}).`,
    `Medians of ${ROUNDS} rounds each, alternated (worst in brackets), after two warm-up rounds. ${cpu[0]?.model ?? 'unknown CPU'} (${cpu.length} cores shared with other work; 1-minute load average ${load.toFixed(1)} at the start), Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
    '`npm run bench -w @bt/server` (packages/server/bench/engine-lanes.bench.ts) rewrites this section.',
    '',
    "| queue | result's workbook read ms | invoice PDF ms | the queued backtests ms |",
    '|---|---:|---:|---:|',
    ...rows,
  ].join('\n');
}

const body = await bench();
console.log(body);
console.log(`\nwritten to ${writeSection(SECTION, body)}`);
