import { useEffect, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { findParam } from '@bt/core/catalogue';
import { PageMeta } from '../../components/PageMeta.js';
import { OFFICIAL_STRATEGIES, SYMBOLS_BY_LABEL } from '../../lib/catalogue.js';
import { loadingBar } from '../../runtime.js';

/** Reference page (spec 3 §2). Scroll offset under the header and the load bar duration. */
export const ANCHOR_OFFSET_PX = 90;
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

const ASSET_CLASS_LABELS: Record<string, string> = {
  forex: 'Forex',
  metal: 'Métal',
  energy: 'Énergie',
  agriculture: 'Agricole',
  index: 'Indice',
  crypto: 'Crypto',
};

function scrollToHash(hash: string) {
  const id = decodeURIComponent(hash.replace(/^#/, ''));
  if (!id) return;
  const target = document.getElementById(id);
  if (!target) return;
  const top = target.getBoundingClientRect().top + window.scrollY - ANCHOR_OFFSET_PX;
  window.scrollTo({ top, behavior: 'smooth' });
}

function Techniques() {
  const strategies = OFFICIAL_STRATEGIES;
  const [selected, setSelected] = useState(strategies[0]?.key ?? '');
  const strategy = strategies.find((s) => s.key === selected);
  return (
    <div className="techniques">
      <ul className="technique-list" role="listbox" aria-label="Stratégies">
        {strategies.map((s) => (
          <li key={s.key}>
            <button type="button" className={`link-button${s.key === selected ? ' active' : ''}`} onClick={() => setSelected(s.key)} aria-selected={s.key === selected} role="option">
              {s.label}
              {s.entryRules.length === 0 ? <span className="badge badge-inactive">à documenter</span> : null}
            </button>
          </li>
        ))}
      </ul>
      {strategy ? (
        <article className="technique-sheet">
          <h3>{strategy.label}</h3>
          <p className="mono small muted">{strategy.key}</p>
          <p>{strategy.description || 'À documenter.'}</p>
          <h4>Règles d’entrée</h4>
          {strategy.entryRules.length ? (
            <ul>
              {strategy.entryRules.map((rule, i) => (
                <li key={i}>{rule}</li>
              ))}
            </ul>
          ) : (
            <p>À documenter.</p>
          )}
          <h4>Paramètres</h4>
          <table className="sheet-table">
            <tbody>
              {strategy.params.map((name) => (
                <tr key={name}>
                  <th scope="row" className="mono">{name}</th>
                  <td>{findParam(name)?.description ?? 'À documenter.'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Link className="btn btn-small" to="/backtest">
            Tester sur /backtest
          </Link>
        </article>
      ) : null}
    </div>
  );
}

function PairSheets() {
  const [params, setParams] = useSearchParams();
  const symbols = SYMBOLS_BY_LABEL;
  const current = symbols.find((s) => s.symbol === params.get('pair')) ?? symbols[0];
  if (!current) return null;
  return (
    <div className="pair-sheet">
      <label>
        Paire{' '}
        <select
          value={current.symbol}
          onChange={(e) => {
            const copy = new URLSearchParams(params);
            copy.set('pair', e.target.value);
            setParams(copy, { replace: true, preventScrollReset: true });
          }}
        >
          {symbols.map((s) => (
            <option key={s.symbol} value={s.symbol}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      <article className="card">
        <h3>
          {current.label} <span className="pip-badge">1 pip = {current.pipSize}</span>
        </h3>
        <ul>
          <li>Symbole : {current.symbol}</li>
          <li>Classe d’actif : {ASSET_CLASS_LABELS[current.assetClass] ?? current.assetClass}</li>
          <li>Taille du pip : {current.pipSize}</li>
          <li>Timeframes officiels : M5, M15, M30, H1, H4</li>
        </ul>
        <p className="muted small">Fiche détaillée (contexte, notes et conseils) à compléter.</p>
        <div className="row-actions">
          <Link className="btn btn-small btn-primary" to={`/backtest?symbol=${encodeURIComponent(current.symbol)}`}>
            Backtester {current.symbol}
          </Link>
          <Link className="btn btn-small" to={`/csv-shop?symbol=${encodeURIComponent(current.symbol)}`}>
            Données CSV
          </Link>
        </div>
      </article>
    </div>
  );
}

export default function ASavoirPage() {
  const location = useLocation();
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
      <nav className="toc card" aria-label="Sommaire">
        <details open>
          <summary>Sommaire</summary>
          <ol>
            {SECTIONS.map((s) => (
              <li key={s.id}>
                <a
                  href={`#${s.id}`}
                  onClick={(e) => {
                    e.preventDefault();
                    window.history.replaceState(window.history.state, '', `${location.pathname}${location.search}#${s.id}`);
                    scrollToHash(`#${s.id}`);
                  }}
                >
                  {s.label}
                </a>
              </li>
            ))}
          </ol>
        </details>
      </nav>
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
            <li>Choisis une stratégie (officielle, générée par IA ou importée).</li>
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
            <dd>Unité de distance de prix : 0.0001 pour la plupart des paires forex, 0.01 pour les paires en JPY, 0.1 pour l’or, 1 pour les indices.</dd>
          </dl>
        </section>
        <section id="techniques">
          <h2>Techniques</h2>
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
            <p>Autorise les pop-ups pour la connexion Google, vérifie l’e-mail de confirmation, puis réessaie depuis la page de connexion.</p>
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
