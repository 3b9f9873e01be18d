import { etaText } from './eta.js';

/** Inline progress of a run with its ETA (docs/product.md §2.4). */
export function ProgressPanel({ percent, elapsedMs, etaMs, done }: { percent: number; elapsedMs: number; etaMs: number; done: boolean }) {
  return (
    <div className="run-progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(percent)} data-testid="run-progress">
      <div className="run-progress-track">
        <div className="run-progress-fill" style={{ width: `${percent}%` }} />
      </div>
      <div className="run-progress-text">
        <span>{Math.round(percent)} %</span>
        <span>{done ? 'Terminé' : etaText(elapsedMs, etaMs)}</span>
      </div>
    </div>
  );
}
