/**
 * Runs the panel's Monte Carlo off the page's thread (docs/web.md, "Monte Carlo"): a bootstrap's
 * runs split over up to PANEL_MAX_WORKERS module workers (job.ts; the same result as one), a
 * shuffle in one; without module workers, after the paint on the page's thread as before. The
 * workers stay up between requests. A change of inputs while a run is out ends its workers (their
 * CPU is not spent on an answer nobody reads) and starts fresh ones; an answer for an older
 * request is never shown.
 */
import type { MonteCarloMethod, MonteCarloResult } from '@bt/core/montecarlo';
import { useEffect, useRef, useState } from 'react';
import { answerMonteCarlo, mergeAnswers, panelWorkers, splitMonteCarlo, type MonteCarloAnswer, type MonteCarloJobAnswer, type MonteCarloRequest } from './job.js';

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

/** `count` live workers from `pool` (started as needed); null when the browser cannot start one. */
function workersFor(pool: Worker[], count: number): Worker[] | null {
  while (pool.length < count) {
    const worker = startWorker();
    if (!worker) return pool.length > 0 ? pool : null;
    pool.push(worker);
  }
  return pool.slice(0, count);
}

/** `riskPerTrade` null: no run (the panel shows why). An empty sequence: no run either. */
export function useMonteCarlo(sequence: readonly number[], method: MonteCarloMethod, riskPerTrade: number | null): MonteCarloState {
  const [state, setState] = useState<MonteCarloState>({ result: null, error: null });
  const pool = useRef<Worker[]>([]);
  const busy = useRef(false);
  const lastId = useRef(0);

  const endWorkers = () => {
    for (const worker of pool.current) worker.terminate();
    pool.current = [];
    busy.current = false;
  };

  // Ended with the panel; forgotten too, so that a panel mounted again (React's strict mode
  // mounts twice in development) starts live workers rather than post to ended ones.
  useEffect(() => endWorkers, []);

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

    if (busy.current) endWorkers();
    const workers = workersFor(pool.current, panelWorkers(request, typeof navigator === 'undefined' ? undefined : navigator.hardwareConcurrency));
    if (!workers) {
      const timer = onPageThread();
      return () => clearTimeout(timer);
    }
    const jobs = splitMonteCarlo(request, workers.length);
    const answers: MonteCarloJobAnswer[] = [];
    busy.current = true;
    jobs.forEach((job, k) => {
      const worker = workers[k];
      worker.onmessage = (event: MessageEvent<MonteCarloJobAnswer>) => {
        if (event.data.id !== id) return;
        answers.push(event.data);
        if (answers.length < jobs.length) return;
        busy.current = false;
        show(mergeAnswers(request, answers));
      };
      // A worker that cannot load (a blocked script, an old browser): the run falls back to the page.
      worker.onerror = (event) => {
        event.preventDefault();
        if (!pool.current.includes(worker)) return;
        endWorkers();
        if (id === lastId.current) onPageThread();
      };
      worker.postMessage(job, [job.sequence.buffer]);
    });
    return undefined;
  }, [sequence, method, riskPerTrade]);

  return state;
}
