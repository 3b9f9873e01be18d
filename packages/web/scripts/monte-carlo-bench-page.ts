/**
 * The page of the Monte Carlo workers benchmark (scripts/monte-carlo-workers.ts): the panel's own
 * split and merge (src/features/montecarlo/job.ts) over module workers running the panel's own
 * worker, timed from the request to the merged result.
 */
import { mergeAnswers, splitMonteCarlo, type MonteCarloJob, type MonteCarloJobAnswer, type MonteCarloRequest } from '../src/features/montecarlo/job.js';

/** A deterministic R sequence: 45 % wins at 1.2 R, losses at -1 (mulberry32 from a fixed seed). */
function sequence(n: number): Float64Array {
  let a = 12345;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = ((t ^ (t >>> 14)) >>> 0) / 4294967296 < 0.45 ? 1.2 : -1;
  }
  return out;
}

function ask(worker: Worker, job: MonteCarloJob): Promise<MonteCarloJobAnswer> {
  return new Promise((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<MonteCarloJobAnswer>) => resolve(event.data);
    worker.onerror = (event) => reject(new Error(event.message));
    worker.postMessage(job, [job.sequence.buffer]);
  });
}

let nextId = 0;

async function run(workers: Worker[], n: number): Promise<void> {
  const request: MonteCarloRequest = { id: ++nextId, sequence: sequence(n), method: 'bootstrap', riskPerTrade: 0.01 };
  const jobs = splitMonteCarlo(request, workers.length);
  const answers = await Promise.all(jobs.map((job, i) => ask(workers[i], job)));
  const merged = mergeAnswers(request, answers);
  if ('error' in merged) throw new Error(merged.error);
}

const start = (count: number) => Array.from({ length: count }, () => new Worker('./worker.js', { type: 'module', name: 'monte-carlo' }));

/**
 * Milliseconds from the request to the merged result with `count` workers: `cold` starts them for
 * the request (the panel's first one), otherwise they have answered a request of the same length
 * before (the panel's later ones).
 */
async function measure(n: number, count: number, cold: boolean): Promise<number> {
  let workers: Worker[] = [];
  try {
    if (!cold) {
      workers = start(count);
      await run(workers, n);
    }
    const t0 = performance.now();
    if (cold) workers = start(count);
    await run(workers, n);
    return performance.now() - t0;
  } finally {
    for (const w of workers) w.terminate();
  }
}

(globalThis as unknown as { measure: typeof measure }).measure = measure;
