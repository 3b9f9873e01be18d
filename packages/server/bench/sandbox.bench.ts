// Owns the `sandbox` section of docs/PERFORMANCE.md. Run: `npm run bench -w @bt/server`.
//
// What bubblewrap costs per call of the strategy sandbox: the same requests through the server's
// sandbox (bubblewrap, the runner bound read-only, an unprivileged user) and through the runner
// started straight under Python (the tests' unisolated launcher, never used by the server),
// alternated so both see the same machine load.
import { cpus, loadavg } from 'node:os';
import { LOOKAHEAD_CUTS, SAMPLE_META, sampleCandles } from '../src/strategies/contract.js';
import { PythonSandbox, type SandboxRequest } from '../src/strategies/sandbox/sandbox.js';
import { writeSection } from '../../../scripts/performance-doc.mjs';
import { quantile } from './quantile.js';
import { testSandboxSetup, unisolatedLauncher } from '../test/support/sandbox.js';
import { BREAKOUT_PY } from '../test/support/work.js';

const SECTION = 'sandbox';
const ROUNDS = 30;


async function bench(): Promise<string> {
  const load = loadavg()[0];
  const setupStarted = performance.now();
  const setup = await testSandboxSetup();
  const setupMs = performance.now() - setupStarted;
  if (!setup.ready) throw new Error(`the sandbox is not available: ${setup.reason}`);
  const isolated = new PythonSandbox(setup, { concurrency: 1 });
  const bare = new PythonSandbox({ ready: true, launcher: unisolatedLauncher() }, { concurrency: 1 });
  const requests: [string, SandboxRequest][] = [
    ['check (static reading only)', { source: BREAKOUT_PY, mode: 'check' }],
    [`dry run (600 candles + ${LOOKAHEAD_CUTS.length} look-ahead cuts)`, { source: BREAKOUT_PY, mode: 'dry_run', candles: sampleCandles(), meta: { ...SAMPLE_META }, params: { lookback: 12, min_body_pips: 0 }, lookaheadCuts: LOOKAHEAD_CUTS }],
  ];
  const rows: string[] = [];
  for (const [label, request] of requests) {
    await isolated.run(request);
    await bare.run(request);
    const times = { isolated: [] as number[], bare: [] as number[] };
    for (let i = 0; i < ROUNDS; i++) {
      times.isolated.push((await isolated.run(request)).wallMs);
      times.bare.push((await bare.run(request)).wallMs);
    }
    const p50 = { isolated: quantile(times.isolated, 0.5), bare: quantile(times.bare, 0.5) };
    rows.push(`| ${label} | ${p50.bare.toFixed(1)} | ${p50.isolated.toFixed(1)} | **${(p50.isolated - p50.bare).toFixed(1)}** | ${quantile(times.bare, 0.9).toFixed(1)} | ${quantile(times.isolated, 0.9).toFixed(1)} |`);
  }
  const cpu = cpus();
  return [
    '## Strategy sandbox: what bubblewrap costs per call',
    '',
    'Wall time of one sandbox call (process start, Python start, the runner, the answer), the same request through the server\'s sandbox',
    '(bubblewrap: new namespaces, the runtime bound read-only, an unprivileged user; docs/security.md) and through the runner started',
    `straight under the same Python (never done by the server), alternated, ${ROUNDS} calls each after one warm-up call. An import makes one check`,
    'and one dry run; a backtest of a personal strategy one run.',
    `${cpu[0]?.model ?? 'unknown CPU'} (${cpu.length} cores shared with other work; 1-minute load average ${load.toFixed(1)} at the start), Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
    '`npm run bench -w @bt/server` (packages/server/bench/sandbox.bench.ts) rewrites this section.',
    '',
    '| call | p50 without (ms) | p50 with bubblewrap (ms) | overhead p50 (ms) | p90 without (ms) | p90 with (ms) |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `Start-up check (probe of the interpreter and one self-test call through bubblewrap): ${setupMs.toFixed(0)} ms, once per server start.`,
  ].join('\n');
}

const body = await bench();
console.log(body);
console.log(`\nwritten to ${writeSection(SECTION, body)}`);
