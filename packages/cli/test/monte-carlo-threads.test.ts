// `bt backtest --monte-carlo` on worker threads (docs/engine.md §15 "Threads", docs/cli.md): the
// same figures on any number of threads, as many threads as pay off by default, a shuffle on one.
// Runs the built worker (dist/monte-carlo-worker.js, built by the package's pretest) and the binary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { monteCarlo, type MonteCarloOptions } from '@bt/core/montecarlo';
import { seededRandom } from '@bt/core/candles';
import { freeCores, monteCarloOnThreads, monteCarloThreads } from '../src/montecarlo/pool.js';
import { bt, cliDir, EURUSD_H1 } from './helpers.js';

const workerUrl = new URL(`file://${join(cliDir, 'dist/monte-carlo-worker.js')}`);

test('monteCarloOnThreads: core’s monteCarlo to the bit on 1 to 5 threads, random sequences and edge cases', async () => {
  const rand = seededRandom(77);
  const cases: [Float64Array, MonteCarloOptions][] = [
    [Float64Array.of(-1), { runs: 9 }],
    [Float64Array.of(2, -1), { runs: 3, seed: 5 }],
    [Float64Array.of(1, -1, -60, 2, -1), { runs: 401, riskPerTrade: 0.02, ruinLevel: 1 }],
    [Float64Array.of(1.7e308, 1.7e308, -1.7e308), { runs: 22 }],
  ];
  for (let k = 0; k < 3; k++) {
    const r = Float64Array.from({ length: 1 + Math.floor(rand() * 500) }, () => (rand() < 0.5 ? -1 : rand() * 3));
    cases.push([r, { runs: 1 + Math.floor(rand() * 3000), seed: Math.floor(rand() * 1e9), riskPerTrade: 0.01 + rand() * 0.1 }]);
  }
  for (const [r, options] of cases) {
    const want = monteCarlo(r, options);
    for (let threads = 1; threads <= 5; threads++) assert.deepStrictEqual(await monteCarloOnThreads(r, options, threads, workerUrl), want, `${r.length} trades, ${options.runs} runs, ${threads} threads`);
  }
});

test('threads by default: one per 25 million draws, at most the cores; never for a shuffle; no more than the groups of 4 runs', () => {
  const r = new Float64Array(1000).fill(1);
  assert.equal(monteCarloThreads(r, { runs: 10_000 }, null, 8), 1, '10 million draws: one thread');
  assert.equal(monteCarloThreads(r, { runs: 10_000, trades: 8000 }, null, 2), 2);
  assert.equal(monteCarloThreads(r, { runs: 10_000, trades: 8000 }, null, 16), 3, '80 million draws: 3 threads of at least 25 million');
  assert.equal(monteCarloThreads(r, { runs: 10_000, trades: 4999 }, null, 16), 1, 'under 50 million draws: one thread');
  assert.equal(monteCarloThreads(r, { runs: 10_000, trades: 5000 }, null, 16), 2);
  assert.equal(monteCarloThreads(r, { runs: 10_000, trades: 8000 }, null, 1), 1);
  assert.equal(monteCarloThreads(r, { runs: 10_000, trades: 8000, method: 'bootstrap' }, 3, 16), 3, 'asked for 3');
  assert.equal(monteCarloThreads(r, { runs: 10_000, method: 'shuffle' }, 4, 16), 1, 'a shuffle’s runs are sequential');
  assert.equal(monteCarloThreads(r, { runs: 6, trades: 1_000_000 }, null, 16), 1, '6 million draws');
  assert.equal(monteCarloThreads(r, { runs: 6, trades: 1_000_000 }, 5, 16), 2, '6 runs: two groups of four');
  assert.equal(monteCarloThreads(r, { runs: 1, trades: 1_000_000 }, 5, 16), 1);
  assert.throws(() => monteCarloThreads(r, { runs: 0 }, 2, 2), /invalid runs/);
});

test('free cores: the cores less the whole tasks of the load average, at least one', () => {
  assert.equal(freeCores(8, 0.4), 8);
  assert.equal(freeCores(8, 2.9), 6);
  assert.equal(freeCores(2, 1.2), 1);
  assert.equal(freeCores(2, 7.5), 1, 'a busy machine: the main thread alone');
  for (const odd of [NaN, -1, Infinity]) assert.equal(freeCores(4, odd), 4, String(odd));
});

test('a worker that fails is a run error, not a hang nor a wrong result', async () => {
  const r = Float64Array.of(1, -1, 2);
  const broken = new URL('data:text/javascript,throw new Error("boom")');
  await assert.rejects(monteCarloOnThreads(r, { runs: 100 }, 2, broken), /Monte Carlo worker crashed: boom/);
  const silent = new URL('data:text/javascript,process.exit(3)');
  await assert.rejects(monteCarloOnThreads(r, { runs: 100 }, 3, silent), /Monte Carlo worker stopped \(exit 3\) without an answer/);
  await assert.rejects(monteCarloOnThreads(Float64Array.of(1, NaN), { runs: 100 }, 2, broken), /NaN at trade 2/, 'checked on this thread first: no worker started');
});

const RUN = ['backtest', '--data', EURUSD_H1, '--strategy', 'englobante_entry', '--sl', '20', '--tp1', '20', '--spread', '1.5', '--json'];

test('bt backtest --monte-carlo: the same JSON figures on 1, 2, 3 and the default threads; a shuffle on one', async () => {
  const runs = await Promise.all([undefined, '1', '2', '3'].map((threads) => bt([...RUN, '--monte-carlo', '2001', '--mc-seed', '12', ...(threads ? ['--mc-threads', threads] : [])])));
  for (const r of runs) assert.equal(r.code, 0, r.stderr);
  const [auto, one, two, three] = runs.map((r) => JSON.parse(r.stdout));
  assert.ok(one.monte_carlo.tradesPerRun > 100, `a real sequence: ${one.monte_carlo.tradesPerRun} trades`);
  assert.deepEqual(two.monte_carlo, one.monte_carlo);
  assert.deepEqual(three.monte_carlo, one.monte_carlo);
  assert.deepEqual(auto.monte_carlo, one.monte_carlo);
  assert.deepEqual([auto, one, two, three].map((j) => j.timing.monte_carlo_threads), [1, 1, 2, 3], 'a short sequence stays on the main thread by default');
  const text = await Promise.all(['1', '3'].map((threads) => bt([...RUN.slice(0, -1), '--monte-carlo', '2001', '--mc-threads', threads])));
  const monteCarloText = (stdout: string) => stdout.slice(stdout.indexOf('\nMonte Carlo'));
  assert.equal(monteCarloText(text[1].stdout), monteCarloText(text[0].stdout), 'the printed figures too');
  assert.match(text[0].stdout, /Monte Carlo \(2,001 bootstrap runs/);
  const shuffle = JSON.parse((await bt([...RUN, '--monte-carlo', '500', '--mc-method', 'shuffle', '--mc-threads', '4'])).stdout);
  assert.equal(shuffle.timing.monte_carlo_threads, 1);
  assert.equal(shuffle.monte_carlo.method, 'shuffle');
});

test('--mc-threads: a whole number from 1 to 64 (as --concurrency), with --monte-carlo only', async () => {
  for (const [args, message] of [
    [['--monte-carlo', '--mc-threads', '0'], 'bt: invalid --mc-threads: "0" (expected a whole number from 1 to 64)\n'],
    [['--monte-carlo', '--mc-threads', 'two'], 'bt: invalid --mc-threads: "two" (expected a whole number from 1 to 64)\n'],
    // 256 threads: 3.1 GB and 1 min 45 s for what 2 threads do in 120 MB and 3 s.
    [['--monte-carlo', '--mc-threads', '65'], 'bt: invalid --mc-threads: "65" (expected a whole number from 1 to 64)\n'],
    [['--mc-threads', '2'], 'bt: --mc-threads needs --monte-carlo\n'],
  ] as const) {
    const r = await bt([...RUN, ...args]);
    assert.equal(r.code, 2, r.stdout);
    assert.equal(r.stderr, message);
  }
});
