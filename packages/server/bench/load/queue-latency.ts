// Where a queued backtest's time goes (docs/queue.md): one API and one bt-worker on loopback
// Redis, sequential official runs, and for each the client's send and receipt against the job's
// own timestamps (job.timestamp: the API built the job; processedOn: a worker took it;
// finishedOn: the worker completed it). With --base DIR, a second system is started from another
// checkout's packages/server (DIR) and the runs alternate between the two (interleaved A/B).
// The system started first was measured 3–5 ms slower in p50 than the second (both the same code)
// on the shared machine: run both directions and average.
//   npx tsx --conditions=@bt/source bench/load/queue-latency.ts --runs 200 [--base /tmp/old/packages/server] [--quiet 3]
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { OFFICIAL_RUN } from './workloads.js';
import type { startTarget as StartTarget, Target } from './target.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '200' }, quiet: { type: 'string', default: '0' }, base: { type: 'string' }, db: { type: 'string', default: 'sqlite' } } });
const runs = Number(values.runs);
const redisUrl = process.env.BT_LOAD_REDIS_URL ?? 'redis://127.0.0.1:6379/11';

interface Sample {
  total: number;
  phases: Record<string, number>;
  sent: number;
  received: number;
  runId: string;
}

async function start(dir: string | null): Promise<{ target: Target; prefix: string }> {
  const mod = (await import(dir ? `${dir}/bench/load/target.ts` : './target.js')) as { startTarget: typeof StartTarget };
  const redis = new Redis(redisUrl);
  const before = new Set(await redis.keys('bt-load-*:backtests:meta'));
  const target = await mod.startTarget({
    dialect: values.db as 'sqlite' | 'mariadb',
    mode: 'queue',
    library: 'basic',
    mysqlUrl: process.env.BT_LOAD_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306',
    redisUrl,
    workers: 1,
    users: 1,
    passwordCost: 14,
    log: (line) => console.error(line),
  });
  const meta = (await redis.keys('bt-load-*:backtests:meta')).filter((k) => !before.has(k));
  redis.disconnect();
  if (meta.length !== 1) throw new Error(`cannot tell this system's queue prefix: ${meta.join(', ')}`);
  await target.topUp(2 * runs + 100);
  return { target, prefix: meta[0].slice(0, -':backtests:meta'.length) };
}

async function one(target: Target): Promise<Sample> {
  const sent = Date.now();
  const res = await fetch(`${target.url}/api/run_backtest`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': target.users[0].key },
    body: JSON.stringify(OFFICIAL_RUN),
  });
  const body = (await res.json()) as Record<string, unknown>;
  const received = Date.now();
  if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  const phases: Record<string, number> = {};
  for (const part of (res.headers.get('server-timing') ?? '').split(',')) {
    const m = /^\s*([\w-]+);dur=([\d.]+)/.exec(part);
    if (m) phases[m[1]] = Number(m[2]);
  }
  const runId = String(body.run_id ?? body.runId ?? (body.run as Record<string, unknown> | undefined)?.run_id ?? '');
  return { total: phases.total, phases, sent, received, runId };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
};

/** The job timestamps of each run (jobs are kept 300 s after completing: read them at once). */
async function jobTimes(prefix: string): Promise<{ timestamp: number; processedOn: number; finishedOn: number }[]> {
  const redis = new Redis(redisUrl);
  const keys = (await redis.keys(`${prefix}:backtests:*`)).filter((k) => /:[0-9a-f-]{36}$/.test(k));
  const out = [];
  for (const key of keys) {
    const [t, p, f] = await redis.hmget(key, 'timestamp', 'processedOn', 'finishedOn');
    if (t && p && f) out.push({ timestamp: Number(t), processedOn: Number(p), finishedOn: Number(f) });
  }
  redis.disconnect();
  return out.sort((a, b) => a.timestamp - b.timestamp);
}

function report(name: string, samples: Sample[], jobs: Awaited<ReturnType<typeof jobTimes>>): void {
  const phaseNames = [...new Set(samples.flatMap((s) => Object.keys(s.phases)))];
  const line = phaseNames.map((p) => `${p} ${median(samples.map((s) => s.phases[p] ?? 0)).toFixed(1)}`).join(', ');
  console.log(`${name}: ${samples.length} runs, p50 ${line}; client round trip ${median(samples.map((s) => s.received - s.sent))} ms`);
  // Pair each run with its job by order (sequential runs: one job at a time); warm-up jobs come first.
  const tail = jobs.slice(-samples.length);
  if (tail.length === samples.length) {
    const d = (f: (s: Sample, j: (typeof jobs)[number]) => number) => median(samples.map((s, i) => f(s, tail[i]))).toFixed(1);
    console.log(
      `  p50 ms: send→job built ${d((s, j) => j.timestamp - s.sent)}, built→worker took ${d((_, j) => j.processedOn - j.timestamp)}, ` +
        `worker took→finished ${d((_, j) => j.finishedOn - j.processedOn)}, finished→client received ${d((s, j) => s.received - j.finishedOn)}`,
    );
  }
}

const systems = [await start(null)];
if (values.base) systems.push(await start(values.base));
const samples: Sample[][] = systems.map(() => []);
try {
  for (let i = 0; i < runs; i++) {
    // Alternate which system goes first so neither always follows the other's run.
    const order = i % 2 ? [...systems.keys()].reverse() : [...systems.keys()];
    for (const k of order) samples[k].push(await one(systems[k].target));
  }
  for (let k = 0; k < systems.length; k++) report(k === 0 ? 'this checkout' : `base ${values.base}`, samples[k], await jobTimes(systems[k].prefix));
  // --quiet N: N more runs each after 35 s without any (longer than an idle engine thread's 30 s).
  const afterQuiet: number[][] = systems.map(() => []);
  for (let i = 0; i < Number(values.quiet); i++) {
    await new Promise((r) => setTimeout(r, 35_000));
    const order = i % 2 ? [...systems.keys()].reverse() : [...systems.keys()];
    for (const k of order) afterQuiet[k].push((await one(systems[k].target)).total);
  }
  if (Number(values.quiet)) afterQuiet.forEach((t, k) => console.log(`${k === 0 ? 'this checkout' : 'base'}: after a quiet 35 s, total ${t.join(', ')} ms`));
} finally {
  await Promise.allSettled(systems.map((s) => s.target.close()));
}
