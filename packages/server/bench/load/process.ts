// The load test's wrapper around a server (or worker) process: it measures the process's own
// event-loop delay (perf_hooks.monitorEventLoopDelay) and CPU time, then runs the real entry
// point unchanged. The harness (bench/load/harness.ts) talks to it over the IPC channel:
//   { type: 'reset' }  starts a new measurement window (one scenario)
//   { type: 'read' }   answers { type: 'stats', ... } for the window so far
// Run: node --import tsx --conditions=@bt/source bench/load/process.ts [server|worker|idle]
// `idle` runs nothing: its loop delay is what the machine's scheduler alone costs a process in the
// same window (on a machine loaded past its cores, a loop also waits for a CPU).
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import process from 'node:process';

/** What one measurement window saw in this process. */
export interface ProcessStats {
  type: 'stats';
  role: string;
  pid: number;
  /** Event-loop delay in ms: the gap between two ticks of a 1 ms timer (a tick late by X ms = the loop was busy X ms). */
  loopDelay: { max: number; p99: number; p50: number; mean: number; samples: number };
  /** CPU time of the whole process (every thread) in the window, ms. */
  cpuMs: number;
  /**
   * CPU time of the main thread alone (the event loop), ms; null where /proc is not there. The
   * figure that caps requests per second: engine and workbook run on worker threads.
   */
  mainCpuMs?: number | null;
  wallMs: number;
  /** The longest garbage-collection pause in the window (ms), and their sum: a loop delay GC explains. */
  gc: { maxMs: number; totalMs: number };
}

const RESOLUTION_MS = 1;
const role = process.argv[2] ?? 'server';
// A 1 ms timer: a blocked loop shows up within a millisecond of its true length (the default
// 10 ms would add up to 10 ms to every reading).
const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
histogram.enable();
let cpuAtReset = process.cpuUsage();
/** utime + stime of the main thread (its task id is the pid), in clock ticks of 10 ms. */
function mainThreadTicks(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}
let mainAtReset = mainThreadTicks();
let wallAtReset = performance.now();
let gcMax = 0;
let gcTotal = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gcMax = Math.max(gcMax, entry.duration);
    gcTotal += entry.duration;
  }
}).observe({ entryTypes: ['gc'] });

function read(): ProcessStats {
  const cpu = process.cpuUsage(cpuAtReset);
  const ms = (ns: number) => Math.round((ns / 1e6) * 100) / 100;
  return {
    type: 'stats',
    role,
    pid: process.pid,
    loopDelay: {
      max: histogram.count ? ms(histogram.max) : 0,
      p99: histogram.count ? ms(histogram.percentile(99)) : 0,
      p50: histogram.count ? ms(histogram.percentile(50)) : 0,
      mean: histogram.count ? ms(histogram.mean) : 0,
      samples: histogram.count,
    },
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    mainCpuMs: mainAtReset === null ? null : ((mainThreadTicks() ?? mainAtReset) - mainAtReset) * 10,
    wallMs: Math.round(performance.now() - wallAtReset),
    // Both to 0.1 ms: a total rounded to whole ms could read below its own longest pause (one GC of 2.46 ms: 2 against 2.5).
    gc: { maxMs: Math.round(gcMax * 10) / 10, totalMs: Math.round(gcTotal * 10) / 10 },
  };
}

process.on('message', (message: { type?: string }) => {
  if (message?.type === 'reset') {
    histogram.reset();
    cpuAtReset = process.cpuUsage();
    mainAtReset = mainThreadTicks();
    wallAtReset = performance.now();
    gcMax = 0;
    gcTotal = 0;
    process.send?.({ type: 'reset-done' });
  } else if (message?.type === 'read') {
    process.send?.(read());
  }
});
// The IPC channel must not keep the process alive once the entry point is done with it.
process.channel?.unref();
process.on('exit', () => {
  const stats = read();
  console.log(`bt-load stats: ${role} event-loop delay since the last reset: max ${stats.loopDelay.max} ms, p99 ${stats.loopDelay.p99} ms; CPU ${stats.cpuMs} ms`);
});

if (role === 'idle') {
  setInterval(() => {}, 1 << 30);
  process.on('SIGTERM', () => process.exit(0));
} else {
  // The entry point as `npm start` / `npm run worker` run it (argv[2] is read by main.ts as its command).
  process.argv.splice(2, 1);
  // tsx turns source maps on; `npm start` runs dist/ without them. With them, every stack a
  // library reads costs a source-map lookup per frame: Sequelize's SQLite dialect reads one per
  // statement (1-3 ms of CPU per backtest request that production never pays).
  process.setSourceMapsEnabled(false);
  const entry = role === 'worker' ? '../../src/worker.js' : '../../src/main.js';
  try {
    await import(entry);
  } catch (err) {
    console.error(`bt-load: cannot load the ${role} (${entry}): ${(err as Error).message.split('\n')[0]}`);
    process.exit(1);
  }
}
