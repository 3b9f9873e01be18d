// Owns the `sandbox-event-loop` section of docs/PERFORMANCE.md. Run: `npm run bench -w @bt/server`.
//
// What a personal strategy's backtest-sized sandbox call costs the API's event loop: its request
// written as JSON and its answer read, in-process (as before 2026-12-01) or on an engine thread
// (src/strategies/sandbox/codec.ts). A 1 ms timer chained through the call shows the longest
// time the event loop could answer nothing else: what every other request of the API waits.
import { cpus, loadavg } from 'node:os';
import { EnginePool } from '../src/jobs/pool.js';
import { inProcessCodec, threadedCodec, type SandboxCodec } from '../src/strategies/sandbox/codec.js';
import { PythonSandbox } from '../src/strategies/sandbox/sandbox.js';
import { signalCount } from '../src/strategies/sandbox/signal-columns.js';
import { writeSection } from '../../../scripts/performance-doc.mjs';
import { longestGap } from './loop-gap.js';
import { quantile } from './quantile.js';
import { syntheticCandles } from '../../core/bench/synthetic.js';
import { testSandboxSetup } from '../test/support/sandbox.js';

const SECTION = 'sandbox-event-loop';
const ROUNDS = 5;
const META = { symbol: 'EURUSD', timeframe: 'M1', pip_size: 0.0001 };
/** A signal every `every` candles, alternating sides, with a stop. */
const strategy = (every: number) => `def detect_spaced(candles, params):
    lows = candles["low"]
    return [{"index": i, "side": "buy" if i % 2 else "sell", "stop": lows[i] - 0.001} for i in range(0, len(lows), ${every})]
`;

interface Sample {
  wallMs: number;
  maxDelayMs: number;
}

/** One call, and the longest the event loop could answer nothing else while it ran (loop-gap.ts). */
async function sampled(sandbox: PythonSandbox, request: Parameters<PythonSandbox['run']>[0]): Promise<Sample> {
  const { gapMs, result } = await longestGap(async () => {
    const started = performance.now();
    const answer = await sandbox.run(request);
    return { answer, wallMs: performance.now() - started };
  });
  if (signalCount(result.answer.signals) === 0) throw new Error('no signals');
  return { wallMs: result.wallMs, maxDelayMs: gapMs };
}

async function bench(): Promise<string> {
  const load = loadavg()[0];
  const setup = await testSandboxSetup();
  if (!setup.ready) throw new Error(`the sandbox is not available: ${setup.reason}`);
  const pool = new EnginePool(1);
  pool.warm();
  const codecs: [string, SandboxCodec][] = [['in-process', inProcessCodec], ['engine thread', threadedCodec(pool.sandbox)]];
  const sandboxes = codecs.map(([label, codec]) => [label, new PythonSandbox(setup, { codec, concurrency: 1, limits: { wallMs: 60_000, cpuSeconds: 30 } })] as const);
  const cases: [number, number][] = [
    [100_000, 10],
    [370_000, 10],
    [370_000, 2],
  ];
  const rows: string[] = [];
  for (const [n, every] of cases) {
    const candles = syntheticCandles(n, { seed: 7, stepMs: 60_000 });
    const request = { source: strategy(every), mode: 'run' as const, candles, meta: META };
    const samples = new Map<string, Sample[]>(sandboxes.map(([label]) => [label, []]));
    for (const [, sandbox] of sandboxes) await sandbox.run(request);
    for (let round = 0; round < ROUNDS; round++) {
      // Alternated, the order flipped each round, so that both see the same machine.
      const order = round % 2 ? [...sandboxes].reverse() : sandboxes;
      for (const [label, sandbox] of order) samples.get(label)!.push(await sampled(sandbox, request));
    }
    for (const [label] of sandboxes) {
      const s = samples.get(label)!;
      const median = (pick: (x: Sample) => number) => quantile(s.map(pick), 0.5);
      rows.push(`| ${n.toLocaleString('en-US')} | ${Math.ceil(n / every).toLocaleString('en-US')} | ${label} | ${median((x) => x.wallMs).toFixed(0)} | **${median((x) => x.maxDelayMs).toFixed(0)}** | ${Math.max(...s.map((x) => x.maxDelayMs)).toFixed(0)} |`);
    }
  }
  await pool.close();
  const cpu = cpus();
  return [
    "## Strategy sandbox: the API's event loop during a personal strategy's call",
    '',
    "A backtest of a personal strategy sends its candles to the sandbox as JSON and reads its signals back (docs/security.md, \"The strategy sandbox\").",
    'A year of M1 (370,000 candles, six columns) is about 18 MB of JSON with five-decimal prices (the request of this benchmark), more with longer numbers; the answer holds up to 200,000 signals.',
    "\"in-process\": both ends on the API's event loop (before 2026-12-01); \"engine thread\": on the engine pool's threads for calls of 5,000 candles or",
    '256 KB of answer and more (src/strategies/sandbox/codec.ts). Longest gap: the longest time the event loop could answer nothing else during',
    `the call (the largest gap between the ticks of a 1 ms timer chained from before the call to after it, so at least 1 ms). Medians of ${ROUNDS} calls each, alternated, after a warm-up call; seeded random-walk M1 candles (core's bench/synthetic.ts).`,
    `${cpu[0]?.model ?? 'unknown CPU'} (${cpu.length} cores shared with other work; 1-minute load average ${load.toFixed(1)} at the start), Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
    '`npm run bench -w @bt/server` (packages/server/bench/sandbox-event-loop.bench.ts) rewrites this section.',
    '',
    '| candles | signals | request and answer | call wall ms | longest event-loop gap ms | worst of the calls ms |',
    '|---:|---:|---|---:|---:|---:|',
    ...rows,
  ].join('\n');
}

const body = await bench();
console.log(body);
console.log(`\nwritten to ${writeSection(SECTION, body)}`);
