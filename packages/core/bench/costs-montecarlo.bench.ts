// What trading costs and the Monte Carlo add to a full run with workbook (the target:
// at most 10 %), per strategy on one year of M5 (74,880 candles). Owns the `costs-montecarlo`
// section of docs/PERFORMANCE.md. Run (in packages/core): npm run bench -- costs-montecarlo
import { cpus, loadavg } from 'node:os';
import { STRATEGIES, monteCarlo, rSequence, runBacktest } from '@bt/core';
import { writeSection } from '../../../scripts/performance-doc.mjs';
import { benchRequest } from './lib/bench-costs.js';
import { forexYearM5 } from './lib/forex-year.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 11);
// Runs per sample: a run's CPU time includes the garbage collections that fall in it, a major one
// (several ms, much of it on V8's helper threads) in some runs and none in others, which scattered
// single-run pairs by ±30 % on a quiet machine; a block of runs takes its share of them.
const BLOCK = Number(process.env.BENCH_BLOCK ?? 5);

interface Sample {
  wall: number;
  cpu: number;
}

/** The mean wall and CPU time of a run over a block of BLOCK runs in a row. */
async function sample(task: () => Promise<unknown> | unknown): Promise<Sample> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < BLOCK; i++) await task();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wall: wall / BLOCK, cpu: (c.user + c.system) / 1000 / BLOCK };
}

async function median(runs: number, task: () => Promise<unknown> | unknown): Promise<{ wall: number; cpu: number }> {
  await task();
  const walls: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < runs; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await task();
    walls.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const mid = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];
  return { wall: mid(walls), cpu: mid(cpu) };
}

const fmt = (x: number, d = 1) => x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

async function main() {
  const loadStart = loadavg()[0];
  const year = forexYearM5();
  const rows: string[] = [];
  let worstCosts = { key: '', pct: -Infinity };
  let worstMc = { key: '', pct: -Infinity };
  const overheads: number[] = [];
  const draws: { trades: number; cpuMs: number }[] = [];
  // Interleaved pairs, compared pair by pair: on a shared machine the load changes between runs
  // far more than 10 %, but two runs in a row see about the same load. The order alternates
  // (plain first, then costs first), so that neither always runs after the other and inherits
  // its garbage. Rounds go over every strategy (one pair each), so that a strategy's pairs are
  // spread over the whole bench rather than bunched in a few seconds that a burst of other work
  // can cover. No forced GC between runs: a major GC throws away the workbook writer's optimized
  // code (report/sheet-xml.ts, lastWriter), and the next run then pays for it again.
  const cases = STRATEGIES.map((s) => {
    return {
      key: s.key,
      plainRequest: () => runBacktest(year, benchRequest(s.key, false), { workbook: true, createdAt: 0 }),
      costsRequest: () => runBacktest(year, benchRequest(s.key, true), { workbook: true, createdAt: 0 }),
      pairs: [] as { plain: Sample; paid: Sample; ratio: number }[],
      paidRun: null as Awaited<ReturnType<typeof runBacktest>> | null,
    };
  });
  for (const c of cases) {
    await c.plainRequest();
    c.paidRun = await c.costsRequest();
  }
  for (let k = 0; k < RUNS; k++) {
    for (const c of cases) {
      const b = k & 1 ? await sample(c.costsRequest) : null;
      const a = await sample(c.plainRequest);
      const paid = b ?? (await sample(c.costsRequest));
      c.pairs.push({ plain: a, paid, ratio: paid.cpu / a.cpu });
    }
  }
  for (const c of cases) {
    const { pairs } = c;
    const paidRun = c.paidRun!;
    const mid = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
    const plain = { wall: mid(pairs.map((p) => p.plain.wall)), cpu: mid(pairs.map((p) => p.plain.cpu)) };
    const paid = { wall: mid(pairs.map((p) => p.paid.wall)), cpu: mid(pairs.map((p) => p.paid.cpu)) };
    const costsRatio = mid(pairs.map((p) => p.ratio));
    // The pairs' spread: the quartiles of their ratios (a median far inside a wide range is noise).
    const sortedRatios = pairs.map((p) => p.ratio).sort((x, y) => x - y);
    const quartile = (q: number) => 100 * (sortedRatios[Math.round(q * (sortedRatios.length - 1))] - 1);
    const r = rSequence(paidRun.trades);
    const mc = r.length ? await median(Math.min(RUNS, 3), () => monteCarlo(r)) : { wall: 0, cpu: 0 };
    if (r.length) draws.push({ trades: r.length, cpuMs: mc.cpu });
    const costsPct = 100 * (costsRatio - 1);
    const mcPct = (100 * mc.cpu) / paid.cpu;
    if (costsPct > worstCosts.pct) worstCosts = { key: c.key, pct: costsPct };
    if (paidRun.trades.length > 0) overheads.push(costsPct);
    if (mcPct > worstMc.pct) worstMc = { key: c.key, pct: mcPct };
    rows.push(`| ${c.key} | ${fmt(paidRun.trades.length, 0)} | ${fmt(plain.wall)} / ${fmt(plain.cpu)} | ${fmt(paid.wall)} / ${fmt(paid.cpu)} | ${fmt(costsPct, 0)} % (${fmt(quartile(0.25), 0)} to ${fmt(quartile(0.75), 0)}) | ${fmt(r.length, 0)} | ${fmt(mc.wall)} / ${fmt(mc.cpu)} | ${fmt(mcPct, 0)} % |`);
    process.stderr.write(`${c.key}: plain ${fmt(plain.wall)} ms, costs ${fmt(paid.wall)} ms, Monte Carlo ${fmt(mc.wall)} ms\n`);
  }
  const perDraw = draws.filter((d) => d.trades >= 1000).map((d) => (d.cpuMs * 1e6) / (10_000 * d.trades)).sort((a, b) => a - b);
  const nsPerDraw = perDraw.length ? perDraw[perDraw.length >> 1] : NaN;
  const cpu = cpus();
  const body = [
    '## Trading costs and Monte Carlo',
    '',
    '`npm run bench -w @bt/core -- costs-montecarlo` (or `npx tsx --conditions=@bt/source bench/costs-montecarlo.bench.ts` in packages/core) rewrites this section.',
    `Machine: ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores shared with other work (1-minute load average ${fmt(loadStart)} at the start, ${fmt(loadavg()[0])} at the end), Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
    `${RUNS} interleaved pairs of blocks of ${BLOCK} runs per strategy after a warm-up run (without then with costs, and with then without, alternately; in rounds over all strategies, one pair each, so that each strategy's pairs spread over the whole bench; no forced GC between runs; a block's mean per run, so that each sample takes its share of the garbage collections, which single runs got all or nothing of); medians, and the costs' overhead as the median of the pairs' CPU-time ratios (two blocks in a row see about the same load). One year of M5 (bench/lib/forex-year.ts), SL 10 / TP1 10 / TP2 20 pips, \`runBacktest(..., { workbook: true })\`; with costs: a spread by UTC hour (2.5 pips 00-06, 1.2 pips 07-20, 3 pips 21-23), 0.7 pip of commission and 0.5 pip of slippage; then core's \`monteCarlo\` (10,000 bootstrap runs) on the TP1 R sequence of the run with costs, on one thread (CPU time: \`bt backtest --monte-carlo\` splits a long bootstrap over worker threads, which shortens its wall time on free cores, not its CPU; section \"Monte Carlo on threads\"; the web app runs it in module workers, off the page's thread).`,
    '',
    '| strategy | trades | full run ms (wall / CPU) | with costs ms (wall / CPU) | costs add (CPU, paired: median (quartiles)) | R sequence | Monte Carlo ms (wall / CPU) | Monte Carlo adds (CPU) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `Costs' overhead, median over the strategies with trades: ${fmt([...overheads].sort((a, b) => a - b)[overheads.length >> 1], 0)} %; largest: ${worstCosts.key}, ${fmt(worstCosts.pct, 0)} % (target: at most 10 %; the quartiles of the pairs' ratios beside each). Where it goes: mostly the workbook of the signal families, which keep their trades with costs and write about 12 % more Trades XML (three cost columns, longer net R and fills); pullback families lose trades to the spread and often cost less with costs than without (docs/engine.md §13, "Speed").`,
    `Monte Carlo: largest share ${worstMc.key}, ${fmt(worstMc.pct, 0)} % of its run with costs; per draw, over the strategies with 1,000 trades or more: ${fmt(nsPerDraw, 1)} ns of CPU (median). 10,000 runs cost 10,000 × trades draws, so the Monte Carlo meets the 10 % only for short sequences: for 8,000 trades, 10 % of a 60 ms run would leave 0.08 ns per draw (docs/engine.md §15). The bootstrap simulates four runs per loop, each run's generator started at its place in the one seeded stream, and both methods select the peak and the drawdown without a branch (the same draws and results as one run at a time with Math.max, docs/engine.md §15).`,
  ].join('\n');
  writeSection('costs-montecarlo', body);
}

await main();
