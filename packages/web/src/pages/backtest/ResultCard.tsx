import { Download, Table2 } from 'lucide-react';
import { lazy, Suspense, useMemo, useState } from 'react';
import { calls } from '../../runtime.js';
import { DownloadLink } from '../../components/DownloadLink.js';
import { useSession } from '../../session/react.js';
import { ResultsOverlay } from '../../features/pins/ResultsOverlay.js';
import { figuresFromStatistics } from '../../features/results/figures.js';
import { costsSummary, type BacktestOutcome } from './result.js';
import { ResultWarnings } from './ResultWarnings.js';

// The result view and its charts load once a result is there: the form's first load stays small.
const ResultView = lazy(() => import('../../features/results/ResultView.js'));
const MonteCarloPanel = lazy(() => import('../../features/montecarlo/MonteCarloPanel.js'));

/** Result of a run (docs/product.md §2.2): the result view, the workbook download and the statistics modal. */
export function ResultCard({ outcome }: { outcome: BacktestOutcome }) {
  const { key } = useSession();
  const [open, setOpen] = useState(false);
  const figures = useMemo(() => figuresFromStatistics(outcome.statistics), [outcome]);
  const downloadHref = calls.downloadUrl(outcome.file, outcome.folder, key);
  const costs = costsSummary(outcome.raw);
  const download = (
    <DownloadLink className="btn" href={downloadHref} file={outcome.file} data-testid="download-xlsx">
      <Download size={16} aria-hidden /> Télécharger .xlsx
    </DownloadLink>
  );

  return (
    <section className="card result-card" data-testid="result-card">
      <Suspense fallback={<p className="muted">Chargement des résultats…</p>}>
        <ResultView
          folder={outcome.folder}
          title={outcome.title}
          subtitle={
            <>
              <p className="muted small" data-testid="result-costs">
                {costs ? `Coûts : ${costs}` : 'Sans coûts de trading'}
              </p>
              <ResultWarnings warnings={outcome.warnings} />
            </>
          }
          figures={figures}
          golden={outcome.golden}
          statistics={outcome.statistics}
          extra={
            outcome.rSequence ? (
              <Suspense fallback={<p className="muted">Chargement du Monte Carlo…</p>}>
                <MonteCarloPanel sequences={outcome.rSequence} />
              </Suspense>
            ) : null
          }
          actions={
            <>
              {download}
              <button type="button" className="btn btn-primary" onClick={() => setOpen(true)} data-testid="open-stats">
                <Table2 size={16} aria-hidden /> Voir les statistiques
              </button>
            </>
          }
        />
      </Suspense>
      {open ? (
        <ResultsOverlay
          title="Statistiques du backtest"
          folder={outcome.folder}
          onClose={() => setOpen(false)}
          footer={
            <DownloadLink className="btn" href={downloadHref} file={outcome.file}>
              <Download size={16} aria-hidden /> Télécharger .xlsx
            </DownloadLink>
          }
        />
      ) : null}
    </section>
  );
}
