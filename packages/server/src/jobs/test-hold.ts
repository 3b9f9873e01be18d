/**
 * The fault tests' hold (BT_TEST_JOB_HOLD_MS, docs/queue.md): a backtest job waits this long
 * before its engine, or until the test releases the holds in progress with SIGUSR2. A test that
 * waits for a condition (a newer run finished, a result deleted) releases the late job as soon as
 * the condition holds, instead of sleeping a bound long enough for a loaded machine. The process
 * listens to SIGUSR2 only once a hold has started: never with the seam off (the default).
 */
const held = new Set<() => void>();
let listening = false;

export function testHold(ms: number, log: (message: string) => void, jobId: string | undefined): Promise<void> {
  if (!listening) {
    listening = true;
    process.on('SIGUSR2', () => {
      for (const release of [...held]) release();
    });
  }
  return new Promise((resolve) => {
    const release = () => {
      clearTimeout(timer);
      held.delete(release);
      resolve();
    };
    const timer = setTimeout(release, ms);
    held.add(release);
    // After the release is registered: a test that reads this line may signal at once.
    log(`bt-worker: test hold of job ${jobId} (${ms} ms or SIGUSR2)`);
  });
}
