import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Download, FlaskConical } from 'lucide-react';
import { findSymbol, type SymbolDefinition } from '@bt/core/catalogue';
import { readLibrary } from '../../features/csv/library.js';
import { SYMBOLS_BY_LABEL } from '../../lib/catalogue.js';
import { work } from '../../runtime.js';
import { availableDataText, spansFromLibrary } from './pairs/available.js';
import { pairSheet } from './pairs/index.js';
import { frenchNumber, specLines } from './pairs/specLines.js';

type DataLine = { status: 'loading' | 'ready' | 'error'; text: string };

const LOADING: DataLine = { status: 'loading', text: 'Recherche des données disponibles…' };
const FAILED: DataLine = { status: 'error', text: 'Impossible de lire la bibliothèque pour le moment : consulte le CSV Shop.' };

/** One library read per symbol and page load. */
const dataLines = new Map<string, Promise<DataLine>>();

function loadDataLine(symbol: string): Promise<DataLine> {
  let pending = dataLines.get(symbol);
  if (!pending) {
    pending = work.csvLibrary(symbol).then(
      (answer) => ({ status: 'ready', text: availableDataText(spansFromLibrary(readLibrary(answer), symbol)) }),
      () => {
        dataLines.delete(symbol);
        return FAILED;
      },
    );
    dataLines.set(symbol, pending);
  }
  return pending;
}

function useDataLine(symbol: string): DataLine {
  const [line, setLine] = useState<DataLine>(LOADING);
  useEffect(() => {
    let alive = true;
    setLine(LOADING);
    void loadDataLine(symbol).then((result) => alive && setLine(result));
    return () => {
      alive = false;
    };
  }, [symbol]);
  return line;
}

const optionLabel = (s: SymbolDefinition) => (s.label === s.symbol ? s.symbol : `${s.label} (${s.symbol})`);

/** The pair named by `pair` (any usual spelling), else the first by label. */
export function pairFromParam(value: string | null): SymbolDefinition | undefined {
  const found = value ? findSymbol(value) : undefined;
  return (found && SYMBOLS_BY_LABEL.find((s) => s.symbol === found.symbol)) ?? SYMBOLS_BY_LABEL[0];
}

/** The pair sheets of /a-savoir (docs/web.md "Reference page"): `pair` read on load and written back. */
export function PairSheets() {
  const [params, setParams] = useSearchParams();
  const current = pairFromParam(params.get('pair'));
  const data = useDataLine(current?.symbol ?? '');
  if (!current) return null;
  const sheet = pairSheet(current.symbol);
  const symbolQuery = encodeURIComponent(current.symbol);
  return (
    <div className="pair-sheets">
      <label className="pair-select">
        Paire
        <select
          value={current.symbol}
          data-testid="pair-select"
          onChange={(e) => {
            const copy = new URLSearchParams(params);
            copy.set('pair', e.target.value);
            setParams(copy, { replace: true, preventScrollReset: true });
          }}
        >
          {SYMBOLS_BY_LABEL.map((s) => (
            <option key={s.symbol} value={s.symbol}>
              {optionLabel(s)}
            </option>
          ))}
        </select>
      </label>
      <article className="card pair-sheet" data-testid="pair-sheet" data-symbol={current.symbol}>
        <header className="pair-sheet-head">
          <h3>{current.label}</h3>
          <span className="mono small muted">{current.symbol}</span>
          <span className="pip-badge" data-testid="pip-badge">
            1 pip = {frenchNumber(current.pipSize)}
          </span>
        </header>
        {sheet ? (
          <>
            <p>{sheet.summary}</p>
            <dl className="spec-lines">
              {specLines(current, sheet, data.text).map((line) => (
                <div key={line.label}>
                  <dt>{line.label}</dt>
                  <dd data-status={line.label === 'Données dans bt' ? data.status : undefined}>{line.text}</dd>
                </div>
              ))}
            </dl>
            <h4>Notes</h4>
            <ul>
              {sheet.notes.map((note) => (
                <li key={note}>{note}</li>
              ))}
            </ul>
            <h4>Conseils</h4>
            <ul>
              {sheet.advice.map((advice) => (
                <li key={advice}>{advice}</li>
              ))}
            </ul>
            <p className="muted small">Informations générales sur l’instrument, pas un conseil financier personnalisé.</p>
          </>
        ) : (
          <p className="muted small">Fiche détaillée à compléter.</p>
        )}
        <div className="row-actions">
          <Link className="btn btn-small btn-primary" to={`/backtest?symbol=${symbolQuery}`}>
            <FlaskConical size={16} aria-hidden="true" /> Backtester {current.symbol}
          </Link>
          <Link className="btn btn-small" to={`/csv-shop?symbol=${symbolQuery}`}>
            <Download size={16} aria-hidden="true" /> Données CSV
          </Link>
        </div>
      </article>
    </div>
  );
}
