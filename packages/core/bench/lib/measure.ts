// What the walk benchmarks time and print with.

/** CPU time (user + system, every thread) of one call, in ms. */
export function cpuMs(task: () => void): number {
  const c0 = process.cpuUsage();
  task();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

export const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];
export const fmt = (x: number, d = 1) => x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
