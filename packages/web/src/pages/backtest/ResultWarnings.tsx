import { Info } from 'lucide-react';

/**
 * The server's warnings about a run (a parameter ignored, trades that touched the SL and a TP in
 * one candle…): a discreet note under the result's title, so a trader learns that the run did not
 * read what was sent as it was sent (docs/web.md "Result view"). Nothing when there is none.
 */
export function ResultWarnings({ warnings }: { warnings: readonly string[] }) {
  if (warnings.length === 0) return null;
  return (
    <div className="alert alert-info small result-warnings" role="note" aria-label="Avertissements du backtest" data-testid="result-warnings">
      <p className="icon-heading">
        <Info size={16} aria-hidden /> À noter sur ce backtest :
      </p>
      <ul>
        {warnings.map((w) => (
          <li key={w} className="user-text">
            {w}
          </li>
        ))}
      </ul>
    </div>
  );
}
