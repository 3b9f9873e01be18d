// What trading costs add to a full run with workbook, counted in machine instructions under
// valgrind's callgrind rather than timed: a count does not move with what else a shared machine
// runs, where the CPU-time ratios of costs-montecarlo.bench.ts spread over ±15 %. Owns the
// `costs-instructions` section of docs/PERFORMANCE.md. Needs valgrind (Debian's package).
// Run (in packages/core): npm run bench -- costs-instructions
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { writeSection } from '../../../scripts/performance-doc.mjs';
import { fmt } from './lib/measure.js';

const here = dirname(fileURLToPath(import.meta.url));
// The strategies whose costs weigh most in costs-montecarlo (signal families keep their trades
// with costs and write three more columns for each) and the two pullback strategies with the most trades.
const STRATEGIES = (process.env.BENCH_STRATEGIES ?? 'fvg_impulsive,fvg_impulsive_ema,englobante_entry,englobante_entry_ema,fvg_pullback_multi,ob_pullback_pure').split(',');
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

interface Count {
  instructions: number;
  trades: number;
}

/**
 * Instructions of the child with `runs` counted runs after its warm-up. `--single-threaded`: V8's
 * concurrent compiler and garbage collector's helper threads would make the count depend on
 * scheduling; on one thread the same work gives about the same count (docs/PERFORMANCE.md, after
 * the section). The machine code V8 writes is checked by --smc-check.
 */
function counted(script: string, strategy: string, mode: 'plain' | 'costs', runs: number): Promise<Count> {
  return new Promise((resolve, reject) => {
    const out = join(dirname(script), `callgrind.${strategy}.${mode}.${runs}.out`);
    const child = spawn('valgrind', ['--tool=callgrind', '--smc-check=all-non-file', `--callgrind-out-file=${out}`, process.execPath, '--single-threaded', script, strategy, mode, String(runs)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const summary = code === 0 && existsSync(out) ? /^summary: (\d+)/m.exec(readFileSync(out, 'utf8')) : null;
      rmSync(out, { force: true });
      if (!summary) return reject(new Error(`valgrind ${strategy} ${mode} ${runs}: exit ${code}\n${stderr.slice(-2000)}`));
      resolve({ instructions: Number(summary[1]), trades: JSON.parse(stdout.trim().split('\n').pop()!).trades });
    });
  });
}

async function main() {
  const valgrind = spawnSync('valgrind', ['--version'], { encoding: 'utf8' });
  if (valgrind.status !== 0) {
    // Skipped, not failed: `npm run bench` runs every bench, and the timed ones need no valgrind.
    console.log('costs-instructions: skipped, valgrind is not installed (apt-get install valgrind); docs/PERFORMANCE.md keeps its last figures');
    return;
  }
  // One bundled file: tsx would compile TypeScript (and start esbuild) under valgrind, tens of times slower.
  const dir = mkdtempSync(join(tmpdir(), 'bt-costs-instructions-'));
  const script = join(dir, 'counted-runs.mjs');
  await build({ entryPoints: [join(here, 'lib/counted-runs.ts')], bundle: true, platform: 'node', format: 'esm', conditions: ['@bt/source'], outfile: script, logLevel: 'warning' });
  const rows: string[] = [];
  const overheads: { key: string; pct: number }[] = [];
  try {
    for (const key of STRATEGIES) {
      // Runs minus warm-up: the difference between a child with RUNS runs and one with none,
      // over RUNS, is one run's count without the process's start, the data and the warm-up.
      // Two children at a time: counts do not depend on sharing the cores.
      const [plain0, costs0] = await Promise.all([counted(script, key, 'plain', 0), counted(script, key, 'costs', 0)]);
      const [plainN, costsN] = await Promise.all([counted(script, key, 'plain', RUNS), counted(script, key, 'costs', RUNS)]);
      const plain = (plainN.instructions - plain0.instructions) / RUNS;
      const paid = (costsN.instructions - costs0.instructions) / RUNS;
      const pct = 100 * (paid / plain - 1);
      overheads.push({ key, pct });
      rows.push(`| ${key} | ${fmt(plainN.trades, 0)} | ${fmt(costsN.trades, 0)} | ${fmt(plain / 1e6)} | ${fmt(paid / 1e6)} | ${fmt(pct)} % | ${plainN.trades === costsN.trades ? fmt((paid - plain) / Math.max(1, costsN.trades), 0) : 'fewer trades'} |`);
      process.stderr.write(`${key}: ${fmt(plain / 1e6)} M instructions per run, ${fmt(paid / 1e6)} M with costs (${fmt(pct)} %)\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const worst = overheads.reduce((a, b) => (b.pct > a.pct ? b : a));
  const body = [
    '## Trading costs in instructions',
    '',
    '`npm run bench -w @bt/core -- costs-instructions` (or `npx tsx --conditions=@bt/source bench/costs-instructions.bench.ts` in packages/core) rewrites this section; it needs valgrind.',
    `${valgrind.stdout.trim()}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
    `The runs of section "Trading costs and Monte Carlo" (one year of M5, SL 10 / TP1 10 / TP2 20 pips, \`runBacktest(..., { workbook: true })\`, the same costs), counted in machine instructions by callgrind instead of timed: a count does not depend on what else the machine runs. Per strategy and case, a child process (\`node --single-threaded\`: V8's compiler and garbage-collector threads would make the count depend on scheduling) with ${RUNS} runs after 3 warm-up runs, less one with the warm-up alone, over ${RUNS}: one run's instructions.`,
    '',
    '| strategy | trades | trades with costs | M instructions per run | with costs | costs add | instructions added per trade (same trades) |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `Largest: ${worst.key}, ${fmt(worst.pct)} % (target: at most 10 %). An instruction count leaves out what instructions wait for (cache misses, the garbage collector's helper threads): the CPU-time figures of section "Trading costs and Monte Carlo" include them, and vary with the machine's other work. Where the added instructions go: below the section.`,
  ].join('\n');
  writeSection('costs-instructions', body);
}

await main();
