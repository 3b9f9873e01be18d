import { formatDateTimeFr, formatIntegerFr, formatPriceFr, formatRFr } from '@bt/core/format';
import { ArrowDownRight, ArrowUpRight } from 'lucide-react';
import { useState } from 'react';
import { OUTCOME_TEXT, type ChartTrade } from './chartAnswer.js';
import { ScrollX } from '../../components/ScrollX.js';

const PAGE = 25;

/** The run's trades; a click (or Enter) on a row shows that trade on the price chart. */
export function TradesTable({ trades, pipSize, selectedId, onSelect }: { trades: ChartTrade[]; pipSize: number; selectedId: number | null; onSelect: (trade: ChartTrade) => void }) {
  const [shown, setShown] = useState(PAGE);
  if (trades.length === 0) return <p className="muted small">Aucun trade sur la période.</p>;
  const price = (p: number | null) => (p === null ? '—' : formatPriceFr(p, pipSize));
  return (
    <div className="trades-list">
      <ScrollX className="sheet-body" label="Liste des trades">
        <table className="sheet-table trades-table" data-testid="trades-table">
          <thead>
            <tr>
              <th>N°</th>
              <th>Sens</th>
              <th>Entrée (UTC)</th>
              <th>Prix d’entrée</th>
              <th>SL</th>
              <th>TP1</th>
              <th>TP2</th>
              <th>Issue</th>
              <th>R (TP1)</th>
            </tr>
          </thead>
          <tbody>
            {trades.slice(0, shown).map((t) => (
              <tr
                key={t.id}
                className={`trade-row${t.id === selectedId ? ' selected' : ''}`}
                tabIndex={0}
                aria-selected={t.id === selectedId}
                title="Voir ce trade sur le graphique"
                onClick={() => onSelect(t)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' || event.key === ' ') {
                    event.preventDefault();
                    onSelect(t);
                  }
                }}
                data-trade={t.id}
              >
                <td>{t.id}</td>
                <td className={t.side === 'buy' ? 'side-buy' : 'side-sell'}>
                  {t.side === 'buy' ? <ArrowUpRight size={14} aria-hidden /> : <ArrowDownRight size={14} aria-hidden />} {t.side === 'buy' ? 'Achat' : 'Vente'}
                </td>
                <td>{formatDateTimeFr(t.entryTime)}</td>
                <td>{price(t.entryPrice)}</td>
                <td>{price(t.sl)}</td>
                <td>{price(t.tp1)}</td>
                <td>{price(t.tp2)}</td>
                <td className={`outcome-${t.outcome}`}>{OUTCOME_TEXT[t.outcome]}</td>
                <td>{t.outcome === 'open' ? '—' : formatRFr(t.rTp1)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollX>
      {shown < trades.length ? (
        <button type="button" className="btn btn-small" onClick={() => setShown(shown + PAGE)} data-testid="trades-more">
          Afficher plus ({formatIntegerFr(trades.length - shown)} restants)
        </button>
      ) : null}
    </div>
  );
}
