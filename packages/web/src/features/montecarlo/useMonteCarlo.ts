/**
 * Runs the panel's Monte Carlo off the page's thread (docs/web.md, "Monte Carlo"): in a module
 * worker when the browser has one, else after the paint on the page's thread as before. A change
 * of inputs while a run is out ends that worker (its CPU is not spent on an answer nobody reads)
 * and starts a fresh one; an answer for an older request is never shown.
 */
import type { MonteCarloMethod, MonteCarloResult } from '@bt/core/montecarlo';
import { useEffect, useRef, useState } from 'react';
import { answerMonteCarlo, type MonteCarloAnswer, type MonteCarloRequest } from './job.js';

export interface MonteCarloState {
  readonly result: MonteCarloResult | null;
  readonly error: string | null;
}

function startWorker(): Worker | null {
  if (typeof Worker === 'undefined') return null;
  try {
    return new Worker(new URL('./monte-carlo.worker.ts', import.meta.url), { type: 'module', name: 'monte-carlo' });
  } catch {
    return null;
  }
}

/** `riskPerTrade` null: no run (the panel shows why). An empty sequence: no run either. */
export function useMonteCarlo(sequence: readonly number[], method: MonteCarloMethod, riskPerTrade: number | null): MonteCarloState {
  const [state, setState] = useState<MonteCarloState>({ result: null, error: null });
  const worker = useRef<Worker | null>(null);
  const busy = useRef(false);
  const lastId = useRef(0);

  // Ended with the panel; forgotten too, so that a panel mounted again (React's strict mode
  // mounts twice in development) starts a live worker rather than post to an ended one.
  useEffect(
    () => () => {
      worker.current?.terminate();
      worker.current = null;
      busy.current = false;
    },
    [],
  );

  useEffect(() => {
    setState({ result: null, error: null });
    if (sequence.length === 0 || riskPerTrade === null) return;
    const id = ++lastId.current;
    const request: MonteCarloRequest = { id, sequence: Float64Array.from(sequence), method, riskPerTrade };
    const show = (answer: MonteCarloAnswer) => {
      if (answer.id !== lastId.current) return;
      setState('result' in answer ? { result: answer.result, error: null } : { result: null, error: answer.error });
    };
    const onPageThread = () => setTimeout(() => show(answerMonteCarlo(request)), 0);

    if (busy.current && worker.current) {
      worker.current.terminate();
      worker.current = null;
    }
    worker.current ??= startWorker();
    const current = worker.current;
    if (!current) {
      const timer = onPageThread();
      return () => clearTimeout(timer);
    }
    busy.current = true;
    current.onmessage = (event: MessageEvent<MonteCarloAnswer>) => {
      busy.current = false;
      show(event.data);
    };
    // A worker that cannot load (a blocked script, an old browser): the run falls back to the page.
    current.onerror = (event) => {
      event.preventDefault();
      busy.current = false;
      current.terminate();
      if (worker.current === current) worker.current = null;
      if (id === lastId.current) onPageThread();
    };
    current.postMessage(request, [request.sequence.buffer]);
    return undefined;
  }, [sequence, method, riskPerTrade]);

  return state;
}
