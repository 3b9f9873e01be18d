/**
 * A stop asked while the server starts (docs/deployment.md, "Stopping during the start"). Before,
 * the signal handlers were installed once the server listened: a SIGTERM during the start ended
 * the process wherever it was, a migration half applied included (MariaDB commits each DDL
 * statement on its own: a table the migration's record did not know, for its next run to fail on).
 * Now the start's steps run to their end and the start stops between two of them: after a
 * migration, the admin's creation, an instrument of the library's seed, each service opened.
 */
export class StopDuringStart extends Error {
  constructor(readonly signal: string) {
    super(`${signal} received while starting`);
    this.name = 'StopDuringStart';
  }
}

export class StartStop {
  private readonly controller = new AbortController();

  /** Aborted when a stop is asked; its reason is the StopDuringStart to throw. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The signal that asked to stop, or null. */
  get asked(): string | null {
    return this.signal.aborted ? (this.signal.reason as StopDuringStart).signal : null;
  }

  request(signal: string): void {
    if (!this.signal.aborted) this.controller.abort(new StopDuringStart(signal));
  }

  /** Between two steps of the start: throws the StopDuringStart once a stop was asked. */
  check(): void {
    this.signal.throwIfAborted();
  }
}

/**
 * The process's one SIGTERM/SIGINT handler: during the start it asks `start` to stop (a second
 * signal exits at once with 1, as after the start); once `running` is set, it hands the signal
 * to the graceful stop.
 */
export function handleStopSignals(start: StartStop, log: (message: string) => void, name = 'bt'): { running(stop: (signal: string) => void): void } {
  let stop: ((signal: string) => void) | null = null;
  const onSignal = (signal: string) => {
    if (stop) return stop(signal);
    if (start.asked) {
      log(`${name}: ${signal} received again, exiting now`);
      process.exit(1);
    }
    log(`${name}: ${signal} received while starting: stopping once the current step ends`);
    start.request(signal);
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  return {
    running(graceful) {
      stop = graceful;
    },
  };
}

/**
 * The shutdown tests' hold (BT_TEST_START_HOLD_MS, off by default): after a step of the start
 * (each migration; a worker's database opened) the start waits this long, or until a stop is
 * asked, so that a test's SIGTERM lands there.
 */
export function testStartHold(start: StartStop, log: (message: string) => void, name = 'bt'): ((after: string) => Promise<void>) | undefined {
  const ms = Number(process.env.BT_TEST_START_HOLD_MS ?? 0);
  if (!(ms > 0)) return undefined;
  return (after) =>
    new Promise<void>((resolve) => {
      if (start.asked) return resolve();
      const done = () => {
        clearTimeout(timer);
        start.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, Math.min(ms, 600_000));
      start.signal.addEventListener('abort', done, { once: true });
      log(`${name}: test hold after ${after} (${ms} ms or a stop)`);
    });
}
