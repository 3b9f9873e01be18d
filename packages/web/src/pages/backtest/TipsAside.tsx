import { Link } from 'react-router-dom';
import { Lightbulb } from 'lucide-react';

/** Tips beside the form (docs/product.md §2.2), linking to the CSV guide of the reference page. */
export function TipsAside() {
  return (
    <aside className="card tips" aria-label="Astuces">
      <h3 className="icon-heading">
        <Lightbulb size={18} aria-hidden="true" /> Astuces
      </h3>
      <ul>
        <li>Un backtest coûte 2 crédits ; un échec n’est pas facturé.</li>
        <li>Période maximale : 31 jours par analyse.</li>
        <li>SL à 0 : stop interne au bord de la zone, TP1 à 1R et TP2 à 2R.</li>
        <li>Les heures des résultats sont en UTC ; l’onglet « Par heure » les convertit dans ton fuseau.</li>
        <li>
          Ton propre fichier (.csv ou .xlsx) ? Colonnes time, open, high, low, close, volume — ou le format officiel Datetime, Open, High, Low, Close, Volume — en UTC : voir le{' '}
          <Link to="/a-savoir#upload-csv">guide d’upload CSV</Link>.
        </li>
      </ul>
    </aside>
  );
}
