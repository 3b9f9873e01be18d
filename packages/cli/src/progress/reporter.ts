// Where progress goes (stderr): an Ink view in a terminal with a size, plain lines otherwise (pipes,
// CI logs), nothing with --no-progress.
import type { ReactElement } from 'react';
import { colorEnabled } from '../output.js';

export interface Reporter<P> {
  update(progress: P): void;
  close(): Promise<void>;
}

export interface ReporterOptions<P> {
  readonly title: string;
  /** false: no progress at all (--no-progress). */
  readonly enabled: boolean;
  /** The Ink view of a state (loaded with ink and react only when drawn). */
  readonly view: (progress: P, color: boolean) => Promise<ReactElement> | ReactElement;
  /** The plain line of a state; null: nothing to print for it. */
  readonly line: (progress: P) => string | null;
  /** Whether this state is the last one (always drawn). */
  readonly finished: (progress: P) => boolean;
}

function lineReporter<P>(line: (p: P) => string | null): Reporter<P> {
  return {
    update(p) {
      const text = line(p);
      if (text) process.stderr.write(`${text}\n`);
    },
    close: async () => {},
  };
}

/** The Ink view, redrawn at most every 80 ms (and once at the end). */
async function inkReporter<P>(options: ReporterOptions<P>): Promise<Reporter<P>> {
  const { render } = await import('ink');
  const color = colorEnabled(process.stderr);
  let last: P | null = null;
  let drawn = 0;
  let instance: ReturnType<typeof render> | null = null;
  let pending: Promise<void> = Promise.resolve();
  const draw = async (p: P) => {
    const element = await options.view(p, color);
    if (!instance) instance = render(element, { stdout: process.stderr, patchConsole: false, exitOnCtrlC: true });
    else instance.rerender(element);
  };
  return {
    update(p) {
      last = p;
      const t = performance.now();
      if (instance && t - drawn < 80 && !options.finished(p)) return;
      drawn = t;
      pending = pending.then(() => draw(p));
    },
    async close() {
      await pending;
      if (!instance) return;
      if (last) await draw(last);
      instance.unmount();
      await instance.waitUntilExit();
    },
  };
}

export async function startReporter<P>(options: ReporterOptions<P>): Promise<Reporter<P> | null> {
  if (!options.enabled) return null;
  // Ink needs a terminal with a size (a pty without one, as under `script`, would wrap every character).
  const live = process.stderr.isTTY && (process.stderr.columns ?? 0) >= 40;
  if (live) return inkReporter(options);
  process.stderr.write(`${options.title}\n`);
  return lineReporter(options.line);
}
