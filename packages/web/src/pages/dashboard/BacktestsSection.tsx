/**
 * 'Mes backtests' (docs/product.md §2.2, §2.9): cards sorted by win rate, trades or pair, 9 then +9, each
 * page asked of the server in the chosen order (a trader's history grows without bound: docs/web.md
 * "Dashboard"); 'Voir résultats' opens the results overlay (with pins); the workbook link or a
 * disabled '.xlsx indisponible'; 'Supprimer' behind the 'Supprimer ce backtest ?' dialog.
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ResultsOverlay } from '../../features/pins/ResultsOverlay.js';
import { formatIntegerFr, formatPercentFr, periodLabel, winrateClass } from '../../lib/format.js';
import { calls } from '../../runtime.js';
import { useSession } from '../../session/react.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { DownloadLink } from '../../components/DownloadLink.js';
import { usePages } from '../../features/paging/usePages.js';
import { BACKTESTS_PAGE, BACKTEST_SORTS, DASHBOARD_MESSAGES, backtestDeleteFailureMessage, backtestDeleteMessage, parseBacktestPage, type BacktestItem, type BacktestSort } from './items.js';

const PAGES = { first: BACKTESTS_PAGE, next: BACKTESTS_PAGE };

function XlsxLink({ item, apiKey }: { item: BacktestItem; apiKey: string | null }) {
  if (!item.xlsxFile) {
    return (
      <button type="button" className="btn btn-small" disabled data-testid="xlsx-unavailable">
        .xlsx indisponible
      </button>
    );
  }
  return (
    <DownloadLink className="btn btn-small" href={calls.downloadUrl(item.xlsxFile, item.folder ?? '', apiKey)} file={item.xlsxFile} data-testid="xlsx-download">
      Télécharger .xlsx
    </DownloadLink>
  );
}

export function BacktestsSection() {
  const { key } = useSession();
  const [sort, setSort] = useState<BacktestSort>('winrate-desc');
  const [open, setOpen] = useState<BacktestItem | null>(null);
  const [confirm, setConfirm] = useState<BacktestItem | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const loaded = usePages((page) => calls.userBacktests({ sort, ...page }).then(parseBacktestPage), (item) => item.id, PAGES, [sort]);

  async function remove(item: BacktestItem) {
    if (!item.folder) {
      setConfirm(null);
      setError(backtestDeleteMessage(DASHBOARD_MESSAGES.unknownFolder));
      return;
    }
    setBusy(true);
    try {
      await calls.deleteBacktest(item.folder);
      loaded.remove(item.id);
      setError(null);
    } catch (failure) {
      setError(backtestDeleteFailureMessage(failure));
    } finally {
      setBusy(false);
      setConfirm(null);
    }
  }

  const shown = loaded.list?.items ?? [];
  const ready = loaded.list !== null;

  return (
    <section className="dash-section" data-testid="backtests-section">
      <div className="dash-section-head">
        <h2>Mes backtests</h2>
        <label className="inline-select">
          Tri{' '}
          <select
            value={sort}
            onChange={(event) => setSort(event.target.value as BacktestSort)}
            data-testid="backtests-sort"
          >
            {BACKTEST_SORTS.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {error ? (
        <p className="alert alert-error" role="alert" data-testid="backtests-error">
          {error}
        </p>
      ) : null}
      {loaded.loading && !ready ? <p className="muted">Chargement…</p> : null}
      {loaded.error && !loaded.loading ? <p className="alert alert-error">{DASHBOARD_MESSAGES.backtestsLoadError}</p> : null}
      {ready && shown.length === 0 && !loaded.more ? (
        <div className="empty-state" data-testid="backtests-empty">
          <p>{DASHBOARD_MESSAGES.noBacktests}</p>
          <p className="small">
            Lance une analyse depuis la page <Link to="/backtest">Backtest</Link> : elle apparaîtra ici.
          </p>
        </div>
      ) : null}
      {shown.length > 0 ? (
        <div className="card-grid">
          {shown.map((item) => {
            const tone = winrateClass(item.winrate);
            return (
              <article key={item.id} className="card dash-card" data-testid="backtest-card" data-folder={item.folder ?? ''}>
                <div className="dash-card-head">
                  <h3 className="dash-card-title">
                    {item.pair || '—'} {item.timeframe ? <span className="tf-badge">{item.timeframe}</span> : null}
                  </h3>
                  <span className={`winrate${tone ? ` winrate-${tone}` : ''}`} title="Win rate TP1" data-testid="backtest-winrate">
                    {item.winrate === null ? '—' : formatPercentFr(item.winrate / 100)}
                  </span>
                </div>
                <p className="small user-text">{item.strategy || '—'}</p>
                <p className="muted small">
                  {item.period ? periodLabel(item.period) : '—'} · {formatIntegerFr(item.trades)} trades
                </p>
                <div className="row-actions">
                  <button type="button" className="btn btn-small btn-primary" onClick={() => setOpen(item)}>
                    Voir résultats
                  </button>
                  <XlsxLink item={item} apiKey={key} />
                  <button type="button" className="btn btn-small btn-ghost" onClick={() => setConfirm(item)}>
                    Supprimer
                  </button>
                </div>
              </article>
            );
          })}
        </div>
      ) : null}
      {loaded.more ? (
        <button type="button" className="btn show-more" onClick={loaded.loadMore} disabled={loaded.loading} data-testid="backtests-more">
          Afficher plus
        </button>
      ) : null}
      {open ? (
        <ResultsOverlay
          folder={open.folder}
          title={`Résultats · ${[open.pair, open.timeframe, open.strategy].filter(Boolean).join(' · ')}`}
          onClose={() => setOpen(null)}
          footer={<XlsxLink item={open} apiKey={key} />}
          withResultView
        />
      ) : null}
      {confirm ? (
        <ConfirmDialog
          title="Supprimer ce backtest ?"
          text="Cette action est irréversible."
          confirmLabel="Supprimer"
          danger
          busy={busy}
          onConfirm={() => void remove(confirm)}
          onClose={() => setConfirm(null)}
        />
      ) : null}
    </section>
  );
}
