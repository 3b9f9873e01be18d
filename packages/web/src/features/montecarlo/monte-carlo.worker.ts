/**
 * The Monte Carlo panel's worker: 10,000 runs of a long R sequence take from tens of milliseconds
 * to about a second, which on the page's own thread would freeze scrolling and typing (docs/web.md,
 * "Monte Carlo"). One request at a time; the panel ends the worker to cancel one.
 */
import { answerMonteCarlo, type MonteCarloAnswer, type MonteCarloRequest } from './job.js';

const scope = self as unknown as { onmessage: ((event: MessageEvent<MonteCarloRequest>) => void) | null; postMessage(answer: MonteCarloAnswer): void };

scope.onmessage = (event) => scope.postMessage(answerMonteCarlo(event.data));
