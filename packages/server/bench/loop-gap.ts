const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The longest gap between the ticks of a 1 ms timer chained while `work` ran: the longest the
 * event loop could answer nothing else. The chain starts 20 ms before `work` and ends 20 ms after
 * it, so a block at either end is seen whole (at least 1 ms). Answers what `work` answered too.
 */
export async function longestGap<T>(work: () => Promise<T>): Promise<{ gapMs: number; result: T }> {
  let last = performance.now();
  let gapMs = 0;
  let ticking = true;
  const tick = () => {
    const now = performance.now();
    gapMs = Math.max(gapMs, now - last);
    last = now;
    if (ticking) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  await sleep(20);
  const result = await work();
  await sleep(20);
  ticking = false;
  return { gapMs, result };
}
