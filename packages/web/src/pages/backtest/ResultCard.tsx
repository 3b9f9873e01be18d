import { lazy, Suspense, useMemo, useState } from 'react';
import { hourLabel } from '../../lib/format.js';
import { calls } from '../../runtime.js';
import { useSession } from '../../session/react.js';
import { ResultsOverlay } from '../../features/pins/ResultsOverlay.js';
import { chartSeries, hasChartData } from './chartData.js';
import { costsSummary, type BacktestOutcome } from './result.js';

const WinrateCharts = lazy(() => import('./WinrateCharts.js'));
const MonteCarloPanel = lazy(() => import('../../features/montecarlo/MonteCarloPanel.js'));



function pct(value: number | null): string {
  return value === null ? '—' : `${(value * 100).toFixed(2)}%`;
}

/** Result of a run (spec 2 §2): workbook download, statistics modal, golden hours and charts. */
export function ResultCard({ outcome }: { outcome: BacktestOutcome }) {
  const { key } = useSession();
  const [open, setOpen] = useState(false);
  const series = useMemo(() => chartSeries(outcome.statistics, outcome.goldenHours), [outcome]);
  const downloadHref = calls.downloadUrl(outcome.file, outcome.folder, key);
  const costs = costsSummary(outcome.raw);

  return (
    <section className="card result-card" data-testid="result-card">
      <div className="result-head">
        <div>
          <h2>Résultats</h2>
          <p className="muted small mono">{outcome.folder}</p>
          <p className="muted small" data-testid="result-costs">{costs ? `Coûts : ${costs}` : 'Sans coûts de trading'}</p>
        </div>
        <div className="row-actions">
          <a className="btn" href={downloadHref} download={outcome.file} data-testid="download-xlsx">
            Télécharger .xlsx
          </a>
          <button type="button" className="btn btn-primary" onClick={() => setOpen(true)} data-testid="open-stats">
            Voir les statistiques
          </button>
        </div>
      </div>
      <div className="result-figures">
        <div>
          <span className="label">Win rate TP1</span>
          <strong>{pct(outcome.winrateGlobal.TP1)}</strong>
        </div>
        <div>
          <span className="label">Win rate TP2</span>
          <strong>{pct(outcome.winrateGlobal.TP2)}</strong>
        </div>
        <div>
          <span className="label">Golden hours (UTC)</span>
          <strong>{outcome.goldenHours.length ? outcome.goldenHours.slice(0, 3).map((g) => `${hourLabel(g.hour)} (${pct(g.TP1)})`).join(' · ') : '—'}</strong>
        </div>
      </div>
      {hasChartData(series) ? (
        <Suspense fallback={<p className="muted">Chargement des graphiques…</p>}>
          <WinrateCharts series={series} />
        </Suspense>
      ) : null}
      {outcome.rSequence ? (
        <Suspense fallback={<p className="muted">Chargement du Monte Carlo…</p>}>
          <MonteCarloPanel sequences={outcome.rSequence} />
        </Suspense>
      ) : null}
      {open ? (
        <ResultsOverlay
          title="Statistiques du backtest"
          folder={outcome.folder}
          onClose={() => setOpen(false)}
          footer={
            <a className="btn" href={downloadHref} download={outcome.file}>
              Télécharger .xlsx
            </a>
          }
        />
      ) : null}
    </section>
  );
}
