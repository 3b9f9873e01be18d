import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ConnectPrompt } from '../../components/ConnectPrompt.js';
import { PageMeta } from '../../components/PageMeta.js';
import {
  ALL,
  LIVE_LABEL,
  SHOP_MESSAGES,
  downloadErrorMessage,
  filterLibrary,
  formatBytes,
  monthLabel,
  monthOptions,
  pageStep,
  pairOptions,
  partialMonthText,
  readLibrary,
  readOwnedCsvs,
  recentExtractions,
  recentPlaceholder,
  showMoreLabel,
  symbolFromQuery,
  timeframeOptions,
  visibleFiles,
  type LibraryFile,
  type LibraryFilter,
  type OwnedCsv,
} from '../../features/csv/library.js';
import { saveBlob } from '../../lib/saveBlob.js';
import { session, work } from '../../runtime.js';
import { useSession } from '../../session/react.js';
import { ColumnsInfo } from './ColumnsInfo.js';
import { ExtractionPanel } from './ExtractionPanel.js';
import './csv-shop.css';
import { SelectOptions } from '../../components/SelectOptions.js';

const PAIRS = pairOptions();
const TIMEFRAMES = timeframeOptions();

type Library = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; files: LibraryFile[]; refreshError: boolean };

function useViewportWidth(): number {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const onResize = () => setWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return width;
}

function FileCard({ file, busy, onDownload }: { file: LibraryFile; busy: boolean; onDownload: () => void }) {
  return (
    <article className="card csv-card" data-testid="csv-card" data-path={file.path}>
      <div className="strategy-card-head">
        <span className="pair">{file.symbol}</span>
        <span className="tf-badge">{file.timeframe}</span>
        {file.owned ? <span className="badge badge-active">Acheté</span> : null}
        {file.partial ? <span className="badge badge-partial">Partiel</span> : null}
      </div>
      <span className="muted small">{file.label !== file.symbol ? file.label : ' '}</span>
      <span className="csv-month">{monthLabel(file.month)}</span>
      <span className="muted small mono">{file.name}</span>
      <span className="muted small">
        {file.rows !== null ? `${file.rows.toLocaleString('fr-FR')} bougies` : ''}
        {file.size !== null ? ` · ${formatBytes(file.size)}` : ''}
      </span>
      {file.partial ? (
        <span className="small partial-text" data-testid="csv-partial">
          {partialMonthText(file)}
        </span>
      ) : null}
      <button type="button" className={`btn btn-small${file.owned ? '' : ' btn-primary'}`} onClick={onDownload} disabled={busy} data-testid="csv-download">
        {busy ? <span className="spinner" aria-hidden="true" /> : null}
        {file.owned ? 'Re-télécharger (gratuit)' : 'Télécharger · 1 crédit'}
      </button>
    </article>
  );
}

export default function CsvShopPage() {
  const [params] = useSearchParams();
  const { key } = useSession();
  const signedIn = !!key;
  const initialSymbol = symbolFromQuery(params.get('symbol'));
  const [filter, setFilter] = useState<LibraryFilter>({ symbol: initialSymbol, timeframe: ALL, month: ALL });
  const [pages, setPages] = useState(1);
  const [library, setLibrary] = useState<Library>({ status: 'loading' });
  const [recent, setRecent] = useState<OwnedCsv[]>([]);
  const [recentStatus, setRecentStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [prompt, setPrompt] = useState<string | null>(null);
  // Every download in flight, not only the last one clicked: with one slot, the first to finish
  // gave the buttons of the others back while their (paid) request was still out.
  const [busyPaths, setBusyPaths] = useState<ReadonlySet<string>>(() => new Set());
  const inFlight = useRef(new Set<string>());
  const [notice, setNotice] = useState<{ error: boolean; text: string } | null>(null);
  const width = useViewportWidth();
  const step = pageStep(width);

  const loadLibrary = useCallback(async (refresh: boolean) => {
    try {
      const files = readLibrary(await work.csvLibrary());
      setLibrary({ status: 'ready', files, refreshError: false });
    } catch {
      // A failed refresh keeps the files already shown (docs/product.md §2.8: two messages).
      setLibrary((current) =>
        refresh && current.status === 'ready' ? { ...current, refreshError: true } : { status: 'error', message: refresh ? SHOP_MESSAGES.refreshError : SHOP_MESSAGES.loadError },
      );
    }
  }, []);

  const loadRecent = useCallback(async () => {
    if (!signedIn) return setRecent([]);
    try {
      setRecent(recentExtractions(readOwnedCsvs(await work.recentExtractions(), 'files')));
      setRecentStatus('ready');
    } catch {
      setRecentStatus('error');
    }
  }, [signedIn]);

  useEffect(() => {
    void loadLibrary(false);
  }, [loadLibrary, key]);
  useEffect(() => {
    void loadRecent();
  }, [loadRecent]);

  const setFilterField = (field: keyof LibraryFilter, value: string) => {
    setPages(1);
    setFilter((current) => {
      const next = { ...current, [field]: value };
      // A month the other filters no longer offer falls back to all months.
      if (field !== 'month' && library.status === 'ready' && !monthOptions(library.files, next).some((m) => m.value === next.month)) next.month = ALL;
      return next;
    });
  };

  const filtered = useMemo(() => (library.status === 'ready' ? filterLibrary(library.files, filter) : []), [library, filter]);
  const months = useMemo(() => (library.status === 'ready' ? monthOptions(library.files, filter) : [{ value: ALL, label: 'Tous' }]), [library, filter]);
  const { shown, more } = visibleFiles(filtered, pages, step);

  async function download(file: { path: string; name: string; owned: boolean }) {
    if (!signedIn) {
      setPrompt('Crée un compte ou connecte-toi pour télécharger un fichier CSV (1 crédit).');
      return;
    }
    // The ref answers at once, before React has disabled the button.
    if (inFlight.current.has(file.path)) return;
    inFlight.current.add(file.path);
    setBusyPaths(new Set(inFlight.current));
    setNotice(null);
    try {
      const blob = file.owned ? await work.downloadOwnedCsv(file.path) : await work.downloadCsv(file.path);
      saveBlob(blob, file.name);
      setNotice({ error: false, text: file.owned ? `${file.name} : re-téléchargement gratuit.` : `${file.name} téléchargé (1 crédit).` });
      setLibrary((current) => (current.status === 'ready' ? { ...current, files: current.files.map((f) => (f.path === file.path ? { ...f, owned: true } : f)) } : current));
      await session.refresh();
    } catch (error) {
      setNotice({ error: true, text: downloadErrorMessage(error) });
    } finally {
      inFlight.current.delete(file.path);
      setBusyPaths(new Set(inFlight.current));
    }
  }

  return (
    <section className="csv-shop-page">
      <PageMeta title="CSV Shop" noindex />
      <header className="page-head">
        <h1>CSV Shop</h1>
        <p className="muted">Données de prix standardisées (OHLCV + indicateurs), prêtes pour tes backtests. 1 crédit le fichier, re-téléchargement gratuit.</p>
      </header>

      <div className="card csv-filters" data-testid="csv-filters">
        <label>
          Paire
          <select value={filter.symbol} onChange={(e) => setFilterField('symbol', e.target.value)} data-testid="filter-symbol">
            {PAIRS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.value === ALL ? o.label : `${o.label} (${o.value})`}
              </option>
            ))}
          </select>
        </label>
        <label>
          Timeframe
          <select value={filter.timeframe} onChange={(e) => setFilterField('timeframe', e.target.value)} data-testid="filter-timeframe">
            <SelectOptions options={TIMEFRAMES} />
          </select>
        </label>
        <label>
          Mois
          <select value={filter.month} onChange={(e) => setFilterField('month', e.target.value)} data-testid="filter-month">
            <SelectOptions options={months} />
          </select>
        </label>
        <button type="button" className="btn btn-ghost btn-small" onClick={() => void loadLibrary(true)} data-testid="csv-refresh">
          Rafraîchir
        </button>
      </div>

      <ColumnsInfo />

      {notice ? (
        <p className={`alert ${notice.error ? 'alert-error' : 'alert-info'}`} role={notice.error ? 'alert' : 'status'} data-testid="csv-notice">
          {notice.text}
        </p>
      ) : null}

      {library.status === 'loading' ? <p className="empty-state">Chargement…</p> : null}
      {library.status === 'error' ? (
        <p className="alert alert-error" role="alert" data-testid="csv-library-error">
          {library.message}
        </p>
      ) : null}
      {library.status === 'ready' && library.refreshError ? (
        <p className="alert alert-warn" role="alert" data-testid="csv-library-error">
          {SHOP_MESSAGES.refreshError}
        </p>
      ) : null}
      {library.status === 'ready' && filtered.length === 0 ? (
        <p className="empty-state" data-testid="csv-empty">
          {SHOP_MESSAGES.empty}
        </p>
      ) : null}
      {shown.length > 0 ? (
        <div className="csv-grid" data-testid="csv-grid">
          {shown.map((file) => (
            <FileCard key={file.path} file={file} busy={busyPaths.has(file.path)} onDownload={() => void download(file)} />
          ))}
        </div>
      ) : null}
      {more ? (
        <div className="show-more">
          <button type="button" className="btn" onClick={() => setPages((p) => p + 1)} data-testid="csv-show-more">
            {showMoreLabel(filtered.length - shown.length)}
          </button>
        </div>
      ) : null}

      <div className="csv-bottom">
        <ExtractionPanel
          work={work}
          signedIn={signedIn}
          initialSymbol={initialSymbol}
          onNeedAccount={() => setPrompt(SHOP_MESSAGES.extractionSignup)}
          onExtracted={(files) => {
            setRecent((current) => recentExtractions([...files, ...current.filter((c) => !files.some((f) => f.path === c.path))]));
            void session.refresh();
          }}
        />
        {signedIn ? (
          <section className="card recent-extractions" data-testid="recent-extractions">
            <h2>Ton extraction (non listée)</h2>
            <p className="muted small">Tes 3 dernières extractions, visibles par toi seul. Re-téléchargement gratuit.</p>
            {recentPlaceholder(recentStatus, recent.length) ? (
              <p className={recentStatus === 'error' ? 'alert alert-error' : 'empty-state'} role={recentStatus === 'error' ? 'alert' : undefined} data-testid="recent-placeholder">
                {recentPlaceholder(recentStatus, recent.length)}
              </p>
            ) : null}
            <ul className="recent-list">
              {recent.map((file) => (
                <li key={file.path} data-testid="recent-extraction">
                  <span className="badge badge-live">{file.label || LIVE_LABEL}</span>
                  <span className="mono small">{file.name}</span>
                  <button
                    type="button"
                    className="btn btn-small"
                    disabled={busyPaths.has(file.path)}
                    onClick={() => void download({ path: file.path, name: file.name, owned: true })}
                  >
                    Télécharger
                  </button>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </div>

      {prompt ? <ConnectPrompt reason={prompt} onClose={() => setPrompt(null)} /> : null}
    </section>
  );
}
