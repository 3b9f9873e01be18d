// The walk as one sweep over the candles (bench/sweep-walk.ts) against the engine's walk, a search
// per trade (src/simulate/fast-walk.ts), on the engine benchmark's 1M-candle series and trades,
// every output checked equal. Owns the `sweep-walk` section of docs/PERFORMANCE.md (docs/engine.md
// §11 says what it shows). Run (in packages/core): npm run bench -- sweep-walk
import { cpus, loadavg } from 'node:os';
import { columnList, filterColumnNames, prepareRun, priceBlocks, runEngineTable, withIndicators } from '@bt/core';
import { cpuMs, fmt, median } from './lib/measure.js';
import { walkChunk } from './lib/walk-trades.js';
import { syntheticCandles } from './synthetic.js';
import { sweepWalk, type SweepInput, type SweepOutput } from './sweep-walk.js';
import { writeSection } from '../../../scripts/performance-doc.mjs';

const STRATEGIES = (process.env.STRATS ?? 'fvg_pullback_multi,fvg_impulsive,ob_pullback_pure,englobante_entry,ob_pullback_gap_rsi').split(',');

const loadAtStart = loadavg()[0];
const rows: string[] = [];

const base = syntheticCandles(1_000_000, { seed: 42 });
for (const key of STRATEGIES) {
  const { plan, params, exits } = prepareRun(base, { strategy: key, symbol: 'EURUSD', slPips: 10, tp1Pips: 10, tp2Pips: 20 });
  const candles = withIndicators(base, columnList(filterColumnNames(plan.filters, params)));
  const run = runEngineTable(candles, { plan, params, exits });
  const table = run.simulation.table;
  const blocks = priceBlocks(candles.high, candles.low);
  const m = table.count;
  const input: SweepInput = { side: table.side, entryIndex: table.entryIndex, fill: table.entryPrice, sl: table.sl, tp1: table.tp1, tp2: table.tp2, resting: Uint8Array.from(run.entries.resting.subarray(0, m)) };
  const out: SweepOutput = { r1: new Int8Array(m), r2: new Int8Array(m), tp1At: new Int32Array(m), tp2At: new Int32Array(m), slAt: new Int32Array(m), fav: new Float64Array(m), adv: new Float64Array(m), ambiguous: new Uint8Array(m) };
  sweepWalk(blocks, input, m, out);
  let bad = 0;
  for (let t = 0; t < m; t++) {
    const same = out.r1[t] === table.r1[t] && out.r2[t] === table.r2[t] && out.tp1At[t] === table.tp1At[t] && out.tp2At[t] === table.tp2At[t] && out.slAt[t] === table.slAt[t] && Object.is(out.fav[t], table.fav[t]) && Object.is(out.adv[t], table.adv[t]) && out.ambiguous[t] === table.ambiguous[t];
    if (!same) {
      if (bad < 3) console.log('mismatch', t, { side: table.side[t], j: table.entryIndex[t], resting: input.resting[t] }, [out.r1[t], out.r2[t], out.tp1At[t], out.tp2At[t], out.slAt[t], out.fav[t], out.adv[t], out.ambiguous[t]], [table.r1[t], table.r2[t], table.tp1At[t], table.tp2At[t], table.slAt[t], table.fav[t], table.adv[t], table.ambiguous[t]]);
      bad++;
    }
  }
  if (bad > 0) throw new Error(`${key}: the sweep differs from the engine's walk on ${bad} of ${m} trades`);
  const sink = new Int32Array(m);
  const fast = () => {
    for (let k = 0; k < m; k += 4096) walkChunk(blocks, input, sink, k, Math.min(m, k + 4096));
  };
  const sweep = () => sweepWalk(blocks, input, m, out);
  for (let w = 0; w < 3; w++) (fast(), sweep());
  // Alternated, so that both see about the same load on a shared machine.
  const a: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < 15; r++) {
    a.push(cpuMs(fast));
    b.push(cpuMs(sweep));
  }
  const [f, w] = [median(a), median(b)];
  rows.push(`| ${key} | ${m.toLocaleString('en-US')} | ${fmt(f)} | ${fmt(w)} | ${fmt((f * 1e6) / m, 0)} | ${fmt((w * 1e6) / m, 0)} | ${fmt(w / f, 2)} |`);
  console.log(rows[rows.length - 1]);
}

writeSection(
  'sweep-walk',
  [
    '## The walk as one sweep over the candles',
    '',
    '`npm run bench -w @bt/core -- sweep-walk` (packages/core/bench/sweep-walk.bench.ts) rewrites this section.',
    `Machine: ${cpus()[0]?.model.trim() ?? process.arch}, Node ${process.version}; 1-minute load average ${fmt(loadAtStart)} at the start, ${fmt(loadavg()[0])} at the end; ${new Date().toISOString().slice(0, 10)}.`,
    "The engine benchmark's 1M M1 candles and each strategy's trades (SL 10 / TP1 10 / TP2 20 pips). \"Search\": the engine's walk (`fastWalk`, a search per trade) over every trade in entry order;",
    '"sweep": every trade walked together in one pass over the candles (bench/sweep-walk.ts: pending exits in two bucket queues keyed by price, two comparisons per candle, the excursions from range extremes of the walk\'s block structures), every output (verdicts, candles, excursions, ambiguity) equal to the search\'s. CPU time, medians of 15 runs alternating the two.',
    '',
    '| strategy | trades | search ms | sweep ms | search ns per trade | sweep ns per trade | sweep / search |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    'What it says (docs/engine.md §11): walking the trades together is slower, not faster, at these densities (a trade every 7 to 10 candles, each living about 150).',
  ].join('\n'),
);
