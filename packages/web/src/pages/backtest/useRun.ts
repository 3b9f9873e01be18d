import { useCallback, useEffect, useRef, useState } from 'react';
import { loadingBar, storage } from '../../runtime.js';
import { ETA, estimateEtaMs, etaKey, progressPercent, readEtaHistory, recordEtaRun } from './eta.js';

export interface RunView {
  running: boolean;
  visible: boolean;
  percent: number;
  elapsedMs: number;
  etaMs: number;
  done: boolean;
}

const IDLE: RunView = { running: false, visible: false, percent: 0, elapsedMs: 0, etaMs: 0, done: false };
const TICK_MS = 200;

/**
 * A run's progress (docs/product.md §2.4): the top bar and the inline bar with its ETA while the call is out,
 * 100 % when it returns, hidden 450 ms later. Successful runs feed the ETA history.
 */
export function useRun() {
  const [view, setView] = useState<RunView>(IDLE);
  const timers = useRef<{ tick?: number; hide?: number }>({});

  useEffect(
    () => () => {
      window.clearInterval(timers.current.tick);
      window.clearTimeout(timers.current.hide);
    },
    [],
  );

  const run = useCallback(async <T,>(source: 'official' | 'custom', timeframe: string, days: number, call: () => Promise<T>, succeeded: (value: T) => boolean): Promise<T> => {
    const key = etaKey(source, timeframe);
    const etaMs = estimateEtaMs(readEtaHistory(storage)[key], days);
    const started = performance.now();
    window.clearTimeout(timers.current.hide);
    setView({ running: true, visible: true, percent: 0, elapsedMs: 0, etaMs, done: false });
    timers.current.tick = window.setInterval(() => {
      const elapsedMs = performance.now() - started;
      setView((v) => ({ ...v, elapsedMs, percent: progressPercent(elapsedMs, etaMs) }));
    }, TICK_MS);
    const endBar = loadingBar.start();
    try {
      const value = await call();
      if (succeeded(value)) recordEtaRun(storage, key, { ms: performance.now() - started, days });
      return value;
    } finally {
      endBar();
      window.clearInterval(timers.current.tick);
      setView((v) => ({ ...v, running: false, percent: 100, done: true }));
      timers.current.hide = window.setTimeout(() => setView(IDLE), ETA.hideAfterMs);
    }
  }, []);

  return { view, run };
}
