import { useState } from 'react';
import { symbolFilterOptions } from '@bt/core/catalogue';
import type { WorkAreaCalls } from '../../api/calls.js';
import {
  EXTRACTION_TIMEFRAMES,
  checkExtraction,
  extractionAnswerError,
  extractionErrorMessage,
  readOwnedCsvs,
  type OwnedCsv,
} from '../../features/csv/library.js';
import { SelectOptions } from '../../components/SelectOptions.js';

type Status = { kind: 'idle' } | { kind: 'running' } | { kind: 'ok'; message: string } | { kind: 'error'; message: string };

const SYMBOLS = symbolFilterOptions().filter((o) => o.value !== 'ALL');

/**
 * On-demand extraction (docs/product.md §2.2, §2.4, §2.5): pair, timeframe and dates, 1 credit, charged once the
 * file is written. Visitors get the connection prompt instead of a call.
 */
export function ExtractionPanel({
  work,
  signedIn,
  initialSymbol,
  onNeedAccount,
  onExtracted,
}: {
  work: WorkAreaCalls;
  signedIn: boolean;
  initialSymbol: string;
  onNeedAccount: () => void;
  onExtracted: (files: OwnedCsv[]) => void;
}) {
  const [symbol, setSymbol] = useState(initialSymbol);
  const [timeframe, setTimeframe] = useState('M15');
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  const [status, setStatus] = useState<Status>({ kind: 'idle' });

  async function extract(event: React.FormEvent) {
    event.preventDefault();
    if (!signedIn) {
      onNeedAccount();
      return;
    }
    const problem = checkExtraction({ symbol, timeframe, startDate, endDate });
    if (problem) {
      setStatus({ kind: 'error', message: problem });
      return;
    }
    setStatus({ kind: 'running' });
    try {
      const answer = await work.extract({ symbol, timeframe, start_date: startDate, end_date: endDate });
      const failure = extractionAnswerError(answer);
      if (failure) {
        setStatus({ kind: 'error', message: failure });
        return;
      }
      const message = typeof answer.message === 'string' && answer.message ? answer.message : 'Extraction prête.';
      setStatus({ kind: 'ok', message });
      onExtracted(readOwnedCsvs(answer, 'files'));
    } catch (error) {
      setStatus({ kind: 'error', message: extractionErrorMessage(error) });
    }
  }

  return (
    <form className="card extraction-panel" onSubmit={extract} data-testid="extraction-panel" noValidate>
      <h2>Extraction à la demande</h2>
      <p className="muted small">
        Une plage précise, en M1 à H4, jusqu’à 24 h en arrière (M1 : 3 dernières semaines). 1 crédit l’extraction ; la même plage à nouveau est
        gratuite.
      </p>
      <div className="form-grid">
        <label>
          Paire
          <select value={symbol} onChange={(e) => setSymbol(e.target.value)} data-testid="extract-symbol">
            <option value="ALL">—</option>
            <SelectOptions options={SYMBOLS} />
          </select>
        </label>
        <label>
          TF
          <select value={timeframe} onChange={(e) => setTimeframe(e.target.value)} data-testid="extract-timeframe">
            {EXTRACTION_TIMEFRAMES.map((tf) => (
              <option key={tf} value={tf}>
                {tf}
              </option>
            ))}
          </select>
        </label>
        <label>
          Début
          <input type="date" value={startDate} onChange={(e) => setStartDate(e.target.value)} data-testid="extract-start" />
        </label>
        <label>
          Fin
          <input type="date" value={endDate} onChange={(e) => setEndDate(e.target.value)} data-testid="extract-end" />
        </label>
      </div>
      <div className="row-actions">
        <button type="submit" className="btn btn-primary" disabled={status.kind === 'running'} data-testid="extract-submit">
          {status.kind === 'running' ? <span className="spinner" aria-hidden="true" /> : null}
          {status.kind === 'running' ? 'Extraction en cours…' : 'Extraire · 1 crédit'}
        </button>
        {status.kind === 'ok' ? (
          <span className="ok-text small" role="status" data-testid="extract-status">
            {status.message}
          </span>
        ) : null}
        {status.kind === 'error' ? (
          <span className="error-text small" role="alert" data-testid="extract-status">
            {status.message}
          </span>
        ) : null}
      </div>
    </form>
  );
}
