// Owns the `sandbox-spawn` section of docs/PERFORMANCE.md. Run: `npm run bench -w @bt/server`.
//
// What starting a sandbox child costs the API's event loop as the API's memory grows: `spawn`
// forks the process that calls it, and on these VMs the fork of a large process stops it for a
// time that grows with its memory. Started by the API itself (as before 2026-12-03), or by the
// sandbox spawner, a small process of its own (src/strategies/sandbox/spawner.ts).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { writeSection } from '../../../scripts/performance-doc.mjs';
import { SandboxSpawner } from '../src/strategies/sandbox/spawner.js';
import { longestGap } from './loop-gap.js';
import { quantile } from './quantile.js';

const SECTION = 'sandbox-spawn';
const ROUNDS = 15;
/** Memory held on top of this process's own, in MB, touched so that it is resident. */
const HELD_MB = [0, 200, 500];
const CHILD = { file: '/bin/sh', args: ['-c', 'exit 0'] };

/** A child started here, its pipes read to their end, as the sandbox did before. */
const inProcess = () =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(CHILD.file, CHILD.args, { cwd: '/', env: {}, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    child.stdout.resume();
    child.stderr.resume();
    child.stdin.end();
    child.once('error', reject);
    child.once('close', () => resolve());
  });

const bySpawner = (spawner: SandboxSpawner) => async () => {
  const child = await spawner.spawn(CHILD);
  child.stdout.resume();
  child.stderr.resume();
  child.stdin.end();
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', () => resolve());
  });
};

async function bench(): Promise<string> {
  const load = loadavg()[0];
  const spawner = new SandboxSpawner();
  const ways: [string, () => Promise<void>][] = [['the API', inProcess], ['the spawner', bySpawner(spawner)]];
  for (const [, start] of ways) await start();
  const held: Buffer[] = [];
  const rows: string[] = [];
  for (const mb of HELD_MB) {
    while (held.length < mb) held.push(Buffer.alloc(1 << 20, 1));
    const rss = process.memoryUsage().rss / 2 ** 20;
    const gaps = new Map<string, number[]>(ways.map(([label]) => [label, []]));
    for (let round = 0; round < ROUNDS; round++) {
      // Alternated, the order flipped each round, so that both see the same machine.
      for (const [label, start] of round % 2 ? [...ways].reverse() : ways) gaps.get(label)!.push((await longestGap(start)).gapMs);
    }
    const [api, spawned] = ways.map(([label]) => gaps.get(label)!);
    const cell = (xs: number[]) => `**${quantile(xs, 0.5).toFixed(1)}** | ${quantile(xs, 0.9).toFixed(1)}`;
    rows.push(`| ${rss.toFixed(0)} | ${cell(api)} | ${cell(spawned)} |`);
  }
  const spawnerRss = /VmRSS:\s*(\d+)/.exec(readFileSync(`/proc/${spawner.pid}/status`, 'utf8'))?.[1];
  const cpu = cpus();
  return [
    "## Strategy sandbox: the API's event loop while a child starts",
    '',
    "Starting a process forks the one that starts it, and on these VMs the kernel's copy of a large process's page tables stops it for a time that grows",
    "with its memory (a fresh server holds about 200 MB). Each sandbox call starts one (docs/security.md, \"The strategy sandbox\"): started by the API itself before",
    '2026-12-03, by the sandbox spawner since, a small process of its own that hands the child\'s pipes back to the API (src/strategies/sandbox/spawner.ts).',
    `Longest gap: the largest gap between the ticks of a 1 ms timer chained from before the start of \`sh -c "exit 0"\` to after its pipes closed; medians and 90th percentiles of ${ROUNDS} starts each, alternated, after one of each;`,
    `the API's memory grown by ${HELD_MB.join(', ')} MB of touched buffers. The spawner's own resident memory: ${spawnerRss ? `${(Number(spawnerRss) / 1024).toFixed(0)} MB` : 'unknown'}.`,
    `${cpu[0]?.model ?? 'unknown CPU'} (${cpu.length} cores shared with other work; 1-minute load average ${load.toFixed(1)} at the start), Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
    '`npm run bench -w @bt/server` (packages/server/bench/sandbox-spawn.bench.ts) rewrites this section.',
    '',
    "| API's resident memory MB | started by the API: longest gap ms, median | p90 | started by the spawner: median | p90 |",
    '|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}

const body = await bench();
console.log(body);
console.log(`\nwritten to ${writeSection(SECTION, body)}`);
process.exit(0);
