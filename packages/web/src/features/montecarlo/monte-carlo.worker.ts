/**
 * One of the Monte Carlo panel's workers: 10,000 runs of a long R sequence take from tens of
 * milliseconds to about a second, which on the page's own thread would freeze scrolling and typing
 * (docs/web.md, "Monte Carlo"). One job at a time (a whole request, or a range of a bootstrap's
 * runs whose figures' buffers are moved back); the panel ends the worker to cancel one.
 */
import { runsBuffers } from '@bt/core/montecarlo';
import { answerJob, type MonteCarloJob, type MonteCarloJobAnswer } from './job.js';

const scope = self as unknown as { onmessage: ((event: MessageEvent<MonteCarloJob>) => void) | null; postMessage(answer: MonteCarloJobAnswer, transfer?: Transferable[]): void };

scope.onmessage = (event) => {
  const answer = answerJob(event.data);
  const transfer = 'runs' in answer ? runsBuffers(answer.runs) : [];
  scope.postMessage(answer, transfer);
};
