// How far the walk's JavaScript kernel is from native code: the same search (bench/native/walk.cpp,
// a line-for-line port of src/simulate/fast-walk.ts) compiled with g++ -O2 -march=native, on the
// same 1M-candle series and the same trades as the engine benchmark, every output checked against
// the JavaScript walk's. Owns the `native-walk` section of docs/PERFORMANCE.md (docs/engine.md §11
// says what it shows). Skipped, with a message, where g++ is missing. Run (in packages/core):
//   npm run bench -- native-walk
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { columnList, filterColumnNames, prepareRun, priceBlocks, runEngineTable, simulateTable, withIndicators } from '@bt/core';
import { cpuMs, fmt, median } from './lib/measure.js';
import { walkChunk, type WalkInput } from './lib/walk-trades.js';
import { syntheticCandles } from './synthetic.js';
import { writeSection } from '../../../scripts/performance-doc.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const STRATEGIES = ['fvg_pullback_multi', 'fvg_impulsive', 'ob_pullback_pure', 'englobante_entry'];
const ROUNDS = 7;


function main(): void {
  const gpp = spawnSync('g++', ['--version'], { encoding: 'utf8' });
  if (gpp.status !== 0) {
    console.log('native-walk: g++ not found, nothing measured (docs/PERFORMANCE.md keeps its last section)');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'bt-native-walk-'));
  try {
    const binary = join(dir, 'walk');
    const build = spawnSync('g++', ['-O2', '-march=native', '-o', binary, join(here, 'native', 'walk.cpp')], { encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`g++ failed: ${build.stderr}`);
    const loadAtStart = loadavg()[0];
    const base = syntheticCandles(1_000_000, { seed: 42 });
    const rows: string[] = [];
    for (const key of STRATEGIES) {
      const { plan, params, exits } = prepareRun(base, { strategy: key, symbol: 'EURUSD', slPips: 10, tp1Pips: 10, tp2Pips: 20 });
      const candles = withIndicators(base, columnList(filterColumnNames(plan.filters, params)));
      const run = runEngineTable(candles, { plan, params, exits });
      const table = run.simulation.table;
      if (run.entries.count !== table.count) throw new Error(`${key}: entries skipped, the trades are not the entries`);
      const blocks = priceBlocks(candles.high, candles.low);
      const input: WalkInput = {
        side: table.side,
        entryIndex: table.entryIndex,
        fill: table.entryPrice,
        sl: table.sl,
        tp1: table.tp1,
        tp2: table.tp2,
        resting: Uint8Array.from(run.entries.resting.subarray(0, table.count)),
      };
      const sub = join(dir, key);
      mkdirSync(sub);
      const write = (name: string, a: ArrayBufferView) => writeFileSync(join(sub, name), new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
      write('high', blocks.high);
      write('low', blocks.low);
      write('candleAt', blocks.candleAt);
      write('windows', blocks.windows);
      write('inSuper', blocks.inSuper);
      write('supers', blocks.supers);
      for (const [name, column] of Object.entries(input)) write(name, column);
      for (const name of ['r1', 'r2', 'tp1At', 'tp2At', 'slAt', 'fav', 'adv'] as const) write(name, table[name]);
      const m = table.count;
      const sink = new Int32Array(m);
      const walkAll = () => {
        for (let k = 0; k < m; k += 4096) walkChunk(blocks, input, sink, k, Math.min(m, k + 4096));
      };
      const stage = () => simulateTable(candles, run.setups, run.entries, exits);
      for (let w = 0; w < 3; w++) (walkAll(), stage());
      // Rounds alternate the JavaScript walk, the native one and the whole walk stage, so that each
      // sees about the same load on a shared machine.
      const js: number[] = [];
      const native: number[] = [];
      const stageMs: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        for (let i = 0; i < 3; i++) js.push(cpuMs(walkAll));
        const out = spawnSync(binary, [sub, '3'], { encoding: 'utf8' });
        if (out.status !== 0) throw new Error(`native walk failed: ${out.stderr}`);
        const answer = JSON.parse(out.stdout) as { trades: number; mismatches: number; cpuMs: number[] };
        if (answer.trades !== m || answer.mismatches !== 0) throw new Error(`${key}: the native walk differs from the JavaScript walk on ${answer.mismatches} of ${m} trades`);
        native.push(...answer.cpuMs);
        for (let i = 0; i < 3; i++) stageMs.push(cpuMs(stage));
      }
      const [j, c, s] = [median(js), median(native), median(stageMs)];
      rows.push(`| ${key} | ${m.toLocaleString('en-US')} | ${fmt(s)} | ${fmt(j)} | ${fmt(c)} | ${fmt((j * 1e6) / m, 0)} | ${fmt((c * 1e6) / m, 0)} | ${fmt(j / c, 2)} |`);
      console.log(rows[rows.length - 1]);
    }
    const body = [
      '## The walk against native code',
      '',
      '`npm run bench -w @bt/core -- native-walk` (packages/core/bench/native-walk.bench.ts) rewrites this section.',
      `Machine: ${process.arch}, Node ${process.version}, ${gpp.stdout.split('\n')[0]}; 1-minute load average ${fmt(loadAtStart)} at the start, ${fmt(loadavg()[0])} at the end; ${new Date().toISOString().slice(0, 10)}.`,
      'The engine benchmark\'s 1M M1 candles and each strategy\'s trades (SL 10 / TP1 10 / TP2 20 pips). "JS walk": `fastWalk` over every trade in entry order, nothing else;',
      '"native walk": the same search ported line for line to C++ (bench/native/walk.cpp, `g++ -O2 -march=native`), every output (verdicts, candles, excursions) equal to the JavaScript walk\'s;',
      '"walk stage": `simulateTable` (levels, the walk, the trade table). CPU time, medians of 21 runs in 7 rounds alternating the three.',
      '',
      '| strategy | trades | walk stage ms | JS walk ms | native walk ms | JS ns per trade | native ns per trade | JS / native |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      ...rows,
      '',
      'What it says (docs/engine.md §11): the search costs about 100 ns per trade even as native code, so the walk of these strategies alone would take',
      'about half of the 25 ms that 40 M candles/s allows per million candles, before detection and entries.',
    ].join('\n');
    writeSection('native-walk', body);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
