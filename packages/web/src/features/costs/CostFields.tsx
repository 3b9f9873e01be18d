import { formatCompactFr } from '@bt/core/format';
import { typicalSpreadText, type CostFormState } from './costs.js';

/**
 * The "Coûts de trading" fieldset of the backtest form: the spread pre-filled with the symbol's
 * typical spread (visible and editable), an optional spread per UTC hour, the file's Spread
 * column (custom files), commission and slippage in pips.
 */
export function CostFields({ costs, custom, symbol, onChange }: { costs: CostFormState; custom: boolean; symbol: string; onChange: (costs: CostFormState) => void }) {
  const set = (change: Partial<CostFormState>) => onChange({ ...costs, ...change });
  const typical = typicalSpreadText(symbol);
  return (
    <fieldset className="cost-fields" data-testid="cost-fields">
      <legend>Coûts de trading</legend>
      <div className="form-grid risk">
        <label>
          Spread (pips)
          <input
            type="text"
            inputMode="decimal"
            value={costs.spread}
            placeholder="0"
            onChange={(e) => set({ spread: e.target.value, spreadEdited: true })}
            data-testid="spread-pips"
          />
          {/* Nothing to say before a symbol is chosen. */}
          {symbol.trim() ? (
            <span className="muted small">{typical ? `Spread typique de la paire : ${formatCompactFr(Number(typical))} pips` : 'Pas de spread typique connu pour ce symbole'}</span>
          ) : null}
        </label>
        <label>
          Commission (pips, aller-retour)
          <input type="text" inputMode="decimal" value={costs.commission} placeholder="0" onChange={(e) => set({ commission: e.target.value })} data-testid="commission-pips" />
        </label>
        <label>
          Slippage (pips)
          <input type="text" inputMode="decimal" value={costs.slippage} placeholder="0" onChange={(e) => set({ slippage: e.target.value })} data-testid="slippage-pips" />
        </label>
      </div>
      <details>
        <summary>Spread par heure (UTC)</summary>
        <label>
          24 valeurs en pips, de 0 h à 23 h UTC, séparées par des espaces (remplace le spread ci-dessus)
          <input type="text" value={costs.spreadByHour} placeholder="2.5 2.5 2 … 1.2 … 3" onChange={(e) => set({ spreadByHour: e.target.value })} data-testid="spread-by-hour" />
        </label>
      </details>
      {custom ? (
        <label className="check">
          <input type="checkbox" checked={costs.spreadFromData} onChange={(e) => set({ spreadFromData: e.target.checked })} data-testid="spread-from-data" />
          Utiliser la colonne Spread du fichier quand elle existe (export MetaTrader, en points)
        </label>
      ) : null}
      <p className="muted small">Les achats se font au ask (bid + spread) et leurs SL/TP sont jugés au bid ; les ventes l’inverse. Commission et slippage sont déduits du R.</p>
    </fieldset>
  );
}
