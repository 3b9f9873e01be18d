/**
 * 'Mes CSV' (docs/product.md §2.2, §2.7): the user's bought and extracted CSV files, 10 then +10, each with a
 * free re-download. When GET /api/user/csvs fails, the download entries of the profile's purchase
 * history stand in.
 */
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { DownloadLink } from '../../components/DownloadLink.js';
import { calls } from '../../runtime.js';
import { useSession } from '../../session/react.js';
import { CSVS_PAGE, DASHBOARD_MESSAGES, csvPeriodLabel, csvsFromPurchaseHistory, frenchDate, pageCount, parseCsvs, type CsvItem } from './items.js';

type Load = { status: 'loading' } | { status: 'error' } | { status: 'ready'; items: CsvItem[] };

export function CsvTab() {
  const { key } = useSession();
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [more, setMore] = useState(0);

  useEffect(() => {
    let alive = true;
    (async () => {
      try {
        return parseCsvs(await calls.userCsvs());
      } catch {
        if (!key) throw new Error('no key');
        return csvsFromPurchaseHistory(await calls.me(key));
      }
    })().then(
      (items) => alive && setLoad({ status: 'ready', items }),
      () => alive && setLoad({ status: 'error' }),
    );
    return () => {
      alive = false;
    };
  }, [key]);

  const items = load.status === 'ready' ? load.items : [];
  const shown = items.slice(0, pageCount(CSVS_PAGE, more, items.length));

  return (
    <section className="dash-section" data-testid="csv-tab">
      <div className="dash-section-head">
        <h2>Mes CSV</h2>
        <Link className="btn btn-small" to="/csv-shop">
          CSV Shop
        </Link>
      </div>
      {load.status === 'loading' ? <p className="muted">Chargement…</p> : null}
      {load.status === 'error' ? <p className="alert alert-error">{DASHBOARD_MESSAGES.loadError}</p> : null}
      {load.status === 'ready' && items.length === 0 ? (
        <div className="empty-state" data-testid="csvs-empty">
          <p>{DASHBOARD_MESSAGES.noCsvs}</p>
          <p className="small">
            Le <Link to="/csv-shop">CSV Shop</Link> te donne des données propres (OHLCV et indicateurs) pour 1 crédit le fichier.
          </p>
        </div>
      ) : null}
      {shown.length > 0 ? (
        <ul className="csv-list">
          {shown.map((item) => (
            <li key={item.id} className="card csv-item" data-testid="csv-item">
              <div>
                <strong className="mono">{item.filename}</strong>
                <div className="muted small">
                  {[item.pair, item.timeframe, csvPeriodLabel(item.period)].filter(Boolean).join(' · ')}
                  {item.date ? ` · ${frenchDate(item.date)}` : ''}
                </div>
              </div>
              {item.kind === 'extraction' ? <span className="badge">{item.label || 'LIVE (privé)'}</span> : null}
              {item.path ? (
                // Fetched on click and saved only when it is a file: as a plain link, a refused or
                // missing file gave the browser's bare failed download, with no word of why.
                <DownloadLink className="btn btn-small" href={calls.ownedCsvUrl(item.path, key)} file={item.filename} data-testid="csv-download">
                  Télécharger
                </DownloadLink>
              ) : (
                <button type="button" className="btn btn-small" disabled>
                  Indisponible
                </button>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      {shown.length < items.length ? (
        <button type="button" className="btn show-more" onClick={() => setMore(more + 1)} data-testid="csvs-more">
          Afficher plus
        </button>
      ) : null}
    </section>
  );
}
