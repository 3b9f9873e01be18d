// Owns the `montecarlo-threads` section of docs/PERFORMANCE.md: `bt backtest --monte-carlo` (the
// built binary, a fresh process each time, as users run it) on one thread and on the available
// cores, for 10,000 runs of about 8,000 trades and for fewer runs (where threads stop paying off:
// montecarlo/pool.ts DRAWS_PER_THREAD). Interleaved (1 thread, then N, then N, then 1, ...), medians.
// Run (in packages/cli, after node scripts/build.mjs): npx tsx --conditions=@bt/source bench/monte-carlo-threads.bench.ts
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { writeCandlesFile } from '@bt/core/node';
import { forexYearM5 } from '../../core/bench/lib/forex-year.js';
import { writeSection } from '../../../scripts/performance-doc.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(resolve(here, '../../..'), 'packages/cli/dist/bin.js');
const PAIRS = Number(process.env.BENCH_RUNS ?? 7);
/** Seconds a pair may wait for a quiet machine (0: no wait). */
const QUIET_WAIT = Number(process.env.BENCH_QUIET_WAIT ?? 60);
const TIME = '/usr/bin/time';
/** fvg_impulsive_ema at SL 10 / TP1 10 on one year of M5: about 7,500 resolved trades (docs/PERFORMANCE.md, "Trading costs and Monte Carlo"). */
const RUN = ['--strategy', 'fvg_impulsive_ema', '--sl', '10', '--tp1', '10', '--tp2', '20'];

interface Sample {
  /** The Monte Carlo's wall time, as the CLI measures it (timing.monte_carlo_ms). */
  readonly mcWall: number;
  /** User + system time of the whole process (every thread), ms. */
  readonly cpu: number;
  readonly threads: number;
  readonly mc: unknown;
}

function run(data: string, runs: number, threads: number): Sample {
  const args = [bin, 'backtest', '--data', data, ...RUN, '--monte-carlo', String(runs), '--mc-threads', String(threads), '--json'];
  const r = spawnSync(TIME, ['-f', 'BT_TIME %U %S', process.execPath, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`bt backtest failed (${r.status}): ${r.stderr}`);
  const m = /BT_TIME ([\d.]+) ([\d.]+)/.exec(r.stderr);
  const json = JSON.parse(r.stdout);
  return { mcWall: json.timing.monte_carlo_ms, cpu: m ? (Number(m[1]) + Number(m[2])) * 1000 : NaN, threads: json.timing.monte_carlo_threads, mc: json.monte_carlo };
}

/**
 * A worker's start, wall ms: from new Worker to the answer of the built worker on 4 runs of one
 * trade (nothing to draw), in a plain node process as bt runs (under tsx its loader would load in
 * every worker too), median of 2 × PAIRS + 1.
 */
async function workerStart(): Promise<number> {
  const url = new URL(`file://${join(dirname(bin), 'monte-carlo-worker.js')}`);
  const script = `import { Worker } from 'node:worker_threads';
const walls = [];
for (let k = 0; k < ${2 * PAIRS + 1}; k++) {
  const t0 = performance.now();
  await new Promise((done) => {
    const w = new Worker(new URL(${JSON.stringify(url.href)}), { execArgv: [], workerData: { r: Float64Array.of(1), options: { runs: 8 }, from: 0, to: 4 } });
    w.once('message', () => { walls.push(performance.now() - t0); void w.terminate().then(done); });
  });
}
walls.sort((a, b) => a - b);
console.log(walls[walls.length >> 1]);`;
  await quiet();
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`worker start probe failed: ${r.stderr}`);
  return Number(r.stdout.trim());
}

/** The machine's idle share over `ms` (Linux /proc/stat; 1 elsewhere). */
async function idleShare(ms: number): Promise<number> {
  const read = () => {
    if (!existsSync('/proc/stat')) return null;
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 8).map(Number);
    return { idle: f[3] + f[4], total: f.reduce((a, b) => a + b, 0) };
  };
  const a = read();
  await sleep(ms);
  const b = read();
  return a && b && b.total > a.total ? (b.idle - a.idle) / (b.total - a.total) : 1;
}

/**
 * Waits (at most QUIET_WAIT seconds) for a second in which the cores are 85 % idle: threads can
 * only show their gain when the other work on this shared machine leaves them a core. True when it came.
 */
async function quiet(): Promise<boolean> {
  const until = performance.now() + QUIET_WAIT * 1000;
  do {
    if ((await idleShare(1000)) >= 0.85) return true;
  } while (performance.now() < until);
  return false;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const fmt = (x: number, d = 0) => x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

async function main() {
  if (!existsSync(TIME)) throw new Error(`${TIME} is needed for the CPU time of every thread`);
  const cores = availableParallelism();
  const dir = mkdtempSync(join(tmpdir(), 'bt-mc-bench-'));
  try {
    const data = join(dir, 'EURUSD_M5_2024.arrow');
    await writeCandlesFile(data, forexYearM5());
    const start = await workerStart();
    process.stderr.write(`worker start: ${fmt(start, 1)} ms\n`);
    const rows: string[] = [];
    let quietLong = false;
    let trades = 0;
    const load0 = loadavg()[0];
    for (const runs of [10_000, 4_000, 2_000, 1_000, 500, 250]) {
      const one: Sample[] = [];
      const many: Sample[] = [];
      let calm = 0;
      for (let k = 0; k < PAIRS; k++) {
        if (await quiet()) {
          calm++;
          if (runs >= 4_000) quietLong = true;
        }
        const order = k & 1 ? [cores, 1] : [1, cores];
        for (const threads of order) (threads === 1 ? one : many).push(run(data, runs, threads));
      }
      for (const s of many) if (!isDeepStrictEqual(s.mc, one[0].mc) || s.threads !== Math.min(cores, Math.ceil(runs / 4))) throw new Error(`${runs} runs on ${cores} threads: not the one-thread result`);
      trades = (one[0].mc as { tradesPerRun: number }).tradesPerRun;
      const [w1, wn, c1, cn] = [median(one.map((s) => s.mcWall)), median(many.map((s) => s.mcWall)), median(one.map((s) => s.cpu)), median(many.map((s) => s.cpu))];
      rows.push(`| ${fmt(runs)} | ${fmt((runs * trades) / 1e6, 1)} M | ${fmt(w1)} | ${fmt(wn)} | ${fmt(w1 / wn, 2)} | ${fmt(c1)} | ${fmt(cn)} | ${fmt(cn - c1)} | ${calm} of ${PAIRS} |`);
      process.stderr.write(`${rows.at(-1)}\n`);
    }
    const cpu = cpus();
    writeSection('montecarlo-threads', [
      '## Monte Carlo on threads',
      '',
      '`npx tsx --conditions=@bt/source bench/monte-carlo-threads.bench.ts` in packages/cli (after its build) rewrites this section.',
      `Machine: ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores shared with other work (1-minute load average ${fmt(load0, 1)} at the start, ${fmt(loadavg()[0], 1)} at the end), Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
      `\`bt backtest --monte-carlo RUNS --json\` (the built binary, a fresh process per run) on one year of M5 (${RUN.join(' ')}: ${fmt(trades)} resolved trades), bootstrap, \`--mc-threads 1\` against \`--mc-threads ${cores}\`, ${PAIRS} interleaved pairs (the order alternating), medians; every threaded result checked equal to the one-thread result. Each pair waits (up to ${QUIET_WAIT} s) for a second in which the cores are 85 % idle, and the last column says how many found one. Monte Carlo wall: the CLI's \`timing.monte_carlo_ms\` (main thread's share, workers started and their answers merged); CPU: user + system of the whole process, every thread (the backtest's own CPU is in both columns).`,
      '',
      `| runs | draws | MC wall ms, 1 thread | MC wall ms, ${cores} threads | wall speed-up | process CPU ms, 1 thread | process CPU ms, ${cores} threads | CPU added by threads | pairs started on a quiet machine |`,
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...rows,
      '',
      'On this shared machine the wall columns depend on the other work: Linux schedules by session (autogroup), so while another session keeps both cores busy this process gets about one core\'s share whatever its threads, the second thread adds no CPU of its own and the wall time does not drop (the CPU column then shows the threads\' cost: the workers\' start and their cold kernel).',
      ...(quietLong ? [] : ['', 'No pair of the long runs (10,000 and 4,000) found a quiet machine here: the gain of threads on free cores is still to be measured on one (on a busy one they were slower, which is why the default counts only the cores the load average leaves free). The short runs, started on a quiet machine, were slower on two threads: their draws take less than the worker\'s start and cold kernel, so by default they stay on the main thread.']),
      '',
      `A worker thread's start (the built worker answering 4 runs of one trade, so nothing but the start, in a plain node process, median of ${2 * PAIRS + 1}): ${fmt(start, 1)} ms. The CLI's default gives a thread 25 million draws or more (montecarlo/pool.ts DRAWS_PER_THREAD), at most the cores the load average leaves free.`,
    ].join('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
