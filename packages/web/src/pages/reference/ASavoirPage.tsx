import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { BookOpen } from 'lucide-react';
import { strategyDoc } from '@bt/core/catalogue';
import { PageMeta } from '../../components/PageMeta.js';
import { OFFICIAL_STRATEGIES } from '../../lib/catalogue.js';
import { loadingBar } from '../../runtime.js';
import { PairSheets } from './PairSheets.js';
import { scrollToHash } from './scroll.js';
import { StrategySheet, ToCompleteBadge } from './StrategySheet.js';
import { strategyDocHref } from './strategyPage.js';
import { Toc, TocAnchors, useTocState } from './Toc.js';
import './reference.css';

/** Reference page (docs/web.md "Reference page"). The load bar's duration; the anchor offset is scroll.ts's. */
export { ANCHOR_OFFSET_PX } from './scroll.js';
export const REFERENCE_BAR_MS = 250;

const SECTIONS = [
  { id: 'proposition', label: 'Pourquoi bt' },
  { id: 'comment-ca-marche', label: 'Comment ça marche' },
  { id: 'glossaire', label: 'Glossaire' },
  { id: 'techniques', label: 'Techniques' },
  { id: 'paires', label: 'Fiches paires' },
  { id: 'upload-csv', label: 'Uploader un CSV' },
  { id: 'csv-officiel', label: 'Format CSV officiel' },
  { id: 'a-propos', label: 'À propos' },
  { id: 'credits', label: 'Crédits et limites' },
  { id: 'securite', label: 'Sécurité et responsabilités' },
  { id: 'faq', label: 'FAQ' },
] as const;

/** Techniques: the official strategies sorted by French label, one sheet at a time. */
function Techniques() {
  const strategies = OFFICIAL_STRATEGIES;
  const [selected, setSelected] = useState(strategies[0]?.key ?? '');
  const doc = strategyDoc(selected);
  return (
    <div className="techniques">
      <ul className="technique-list" role="listbox" aria-label="Stratégies">
        {strategies.map((s) => {
          const item = strategyDoc(s.key);
          return (
            <li key={s.key}>
              <button type="button" className={`link-button${s.key === selected ? ' active' : ''}`} onClick={() => setSelected(s.key)} aria-selected={s.key === selected} role="option">
                {s.label}
                {item ? <ToCompleteBadge doc={item} /> : null}
              </button>
            </li>
          );
        })}
      </ul>
      {doc ? (
        <article className="technique-sheet" data-testid="technique-sheet">
          <StrategySheet doc={doc} />
          <div className="row-actions">
            <Link className="btn btn-small btn-primary" to={strategyDocHref(doc.key)} data-testid="strategy-doc-link">
              <BookOpen size={16} aria-hidden="true" /> Documentation complète
            </Link>
            <Link className="btn btn-small" to="/backtest">
              Tester sur /backtest
            </Link>
          </div>
        </article>
      ) : null}
    </div>
  );
}

export default function ASavoirPage() {
  const location = useLocation();
  const toc = useTocState();
  useEffect(() => {
    const end = loadingBar.start();
    const timer = setTimeout(end, REFERENCE_BAR_MS);
    return () => {
      clearTimeout(timer);
      end();
    };
  }, []);
  useEffect(() => {
    const timer = setTimeout(() => scrollToHash(location.hash), 0);
    return () => clearTimeout(timer);
  }, [location.hash]);

  return (
    <div className="reference-page">
      <PageMeta title="À savoir" />
      <Toc state={toc}>
        <TocAnchors sections={SECTIONS} state={toc} />
      </Toc>
      <div className="reference-content">
        <section id="proposition">
          <h1>À savoir</h1>
          <h2>Pourquoi bt</h2>
          <ul>
            <li><strong>Golden Hours</strong> : les heures, sessions et jours où ta stratégie fonctionne vraiment.</li>
            <li><strong>Contexte et filtrage</strong> : filtres RSI et EMA, attente min/max, profondeur de retour.</li>
            <li><strong>Clarté actionnable</strong> : un classeur par analyse, des intervalles de confiance, pas de boîte noire.</li>
          </ul>
          <div className="row-actions">
            <Link to="/backtest" className="btn btn-primary">Lancer un backtest</Link>
            <Link to="/csv-shop" className="btn">CSV Shop</Link>
          </div>
        </section>
        <section id="comment-ca-marche">
          <h2>Comment ça marche, en 6 étapes</h2>
          <ol>
            <li>Choisis la paire et le timeframe.</li>
            <li>Choisis une stratégie : l’une des 24 officielles, ou la tienne (générée à partir d’une description, ou importée en .py).</li>
            <li>Choisis la période (31 jours maximum).</li>
            <li>Règle les paramètres (ou garde les valeurs par défaut).</li>
            <li>Gestion du risque : au minimum un stop-loss en pips et un take-profit.</li>
            <li>Lance : 2 crédits, résultats en quelques secondes.</li>
          </ol>
        </section>
        <section id="glossaire">
          <h2>Glossaire</h2>
          <dl className="glossary">
            <dt>OB (order block)</dt>
            <dd>Dernière bougie opposée avant une impulsion qui casse son extrême ; la zone est son range.</dd>
            <dt>FVG (fair value gap)</dt>
            <dd>Déséquilibre de 3 bougies : le bas de la 3ᵉ au-dessus du haut de la 1ʳᵉ (haussier), ou l’inverse.</dd>
            <dt>EMA</dt>
            <dd>Moyenne mobile exponentielle ; filtre simple (clôture vs EMA) ou de tendance (EMA rapide vs lente).</dd>
            <dt>RSI</dt>
            <dd>Indice de force relative (Wilder, 14) ; achat sous le seuil, vente au-dessus de 100 − seuil.</dd>
            <dt>Pip</dt>
            <dd>Unité de distance de prix : 0,0001 pour la plupart des paires forex, 0,01 pour les paires en JPY, 0,1 pour l’or, 1 point pour les indices. Chaque fiche paire donne le sien.</dd>
            <dt>VIX</dt>
            <dd>
              Indice de volatilité du Cboe, calculé à partir des options sur le S&amp;P 500 : la volatilité que le marché attend sur 30 jours. Repère : au-dessus de 20, marché
              sous tension ; en dessous de 15, marché calme.
            </dd>
          </dl>
        </section>
        <section id="techniques">
          <h2>Techniques</h2>
          <p className="muted">
            Chaque stratégie officielle, ses règles d’entrée et ses paramètres. La <Link to={strategyDocHref()}>documentation des stratégies</Link> détaille aussi leurs définitions et leur stop interne.
          </p>
          <Techniques />
        </section>
        <section id="paires">
          <h2>Fiches paires</h2>
          <PairSheets />
        </section>
        <section id="upload-csv">
          <h2>Uploader ton propre CSV</h2>
          <ul>
            <li>Colonnes obligatoires, en-têtes exacts et sensibles à la casse : <code>Datetime, Open, High, Low, Close, Volume</code>.</li>
            <li>Horodatage en UTC avec <code>+00:00</code>, heure d’ouverture de la bougie.</li>
            <li>Séparateur virgule, encodage UTF-8, point décimal (pas de virgule).</li>
            <li>Lignes triées par date croissante, sans doublon.</li>
            <li>Pas de temps constant (M1, M5, M15, H1…).</li>
            <li>Une éventuelle seconde ligne d’en-tête contenant le symbole est ignorée.</li>
          </ul>
          <h3>Erreurs fréquentes</h3>
          <table className="sheet-table">
            <thead>
              <tr>
                <th>Problème</th>
                <th>Correction</th>
              </tr>
            </thead>
            <tbody>
              <tr><td>Heure locale</td><td>Convertir en UTC.</td></tr>
              <tr><td>Doublons</td><td>Les supprimer ou garder le premier.</td></tr>
              <tr><td>Colonnes mal nommées (date, open_time)</td><td>Les renommer.</td></tr>
              <tr><td>Séparateur point-virgule</td><td>Convertir en virgule.</td></tr>
            </tbody>
          </table>
        </section>
        <section id="csv-officiel">
          <h2>Format CSV officiel</h2>
          <table className="sheet-table">
            <tbody>
              <tr><th scope="row">Datetime</th><td>ISO 8601 UTC, heure d’ouverture de la bougie, obligatoire</td></tr>
              <tr><th scope="row">Open, High, Low, Close</th><td>Nombres, obligatoires</td></tr>
              <tr><th scope="row">Volume</th><td>Nombre, obligatoire, peut valoir 0</td></tr>
              <tr><th scope="row">RSI_14</th><td>Facultatif, calculé par notre pipeline</td></tr>
            </tbody>
          </table>
          <p className="muted small">Les colonnes supplémentaires (EMA_50…) sont ignorées sauf si une stratégie les documente. Un fichier officiel contient une paire et un timeframe.</p>
        </section>
        <section id="a-propos">
          <h2>À propos</h2>
          <p>bt est fait par des traders pour des traders : mesurer une stratégie d’entrée sur des données propres, sans écrire de code.</p>
        </section>
        <section id="credits">
          <h2>Crédits et limites</h2>
          <ul>
            <li>Backtest : 2 crédits. Téléchargement ou extraction de CSV : 1 crédit.</li>
            <li>Crédits offerts à l’inscription, après confirmation de l’e-mail.</li>
            <li>Période maximale : 31 jours par backtest. Extraction M1 : 3 semaines maximum en arrière.</li>
            <li>Les crédits achetés n’expirent pas et ne sont pas remboursables une fois consommés.</li>
          </ul>
        </section>
        <section id="securite">
          <h2>Sécurité et responsabilités</h2>
          <p>
            bt ne donne aucun conseil financier personnalisé. Voir les <Link to="/legal/mentions-legales">mentions légales</Link>, la{' '}
            <Link to="/legal/politique-confidentialite">politique de confidentialité</Link> et les <Link to="/legal/cgu">CGU</Link>.
          </p>
        </section>
        <section id="faq">
          <h2>FAQ</h2>
          <details>
            <summary>Mon backtest CSV échoue, que vérifier ?</summary>
            <p>Un CSV UTF-8 séparé par des virgules, une colonne Datetime en UTC lisible, une stratégie compatible avec le timeframe, et au moins 2 crédits.</p>
          </details>
          <details>
            <summary>Je n’arrive pas à me connecter.</summary>
            <p>
              Autorise les pop-ups pour la connexion Google, vérifie l’e-mail de confirmation, puis réessaie depuis la <Link to="/auth">page de connexion</Link>.
            </p>
          </details>
          <details>
            <summary>Combien coûte un backtest ?</summary>
            <p>2 crédits. Un backtest qui échoue n’est pas facturé.</p>
          </details>
        </section>
      </div>
    </div>
  );
}
