import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { ArrowLeft, FlaskConical } from 'lucide-react';
import { STRATEGY_DOCS, strategyDoc, strategyFamilies } from '@bt/core/catalogue';
import { PageMeta } from '../../components/PageMeta.js';
import { scrollToHash, scrollToId } from './scroll.js';
import { ParamTable, ToCompleteBadge } from './StrategySheet.js';
import { Toc, TocAnchors, useTocState } from './Toc.js';
import { DETAIL_SECTIONS, searchWithStrat, strategyDocHref, stratFromSearch } from './strategyPage.js';
import './reference.css';

const FAMILIES = strategyFamilies();

/**
 * The strategy documentation page (docs/web.md "Strategy documentation"): a selector, `strat`
 * read and written back, the first strategy by default, a smooth scroll to the detail, and a table
 * of contents that is a sidebar on desktop and a collapsed 'Sommaire' on phones.
 */
export default function StrategyDocsPage() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const choice = useMemo(() => stratFromSearch(params), [params]);
  const doc = strategyDoc(choice.key)!;
  const toc = useTocState();

  // The address always names the strategy shown (missing, unknown or misspelled: rewritten in place).
  const [unknownAsked, setUnknownAsked] = useState<string | null>(choice.unknown);
  useEffect(() => {
    if (choice.unknown) setUnknownAsked(choice.unknown);
    if (choice.rewrite) setParams(searchWithStrat(params, choice.key), { replace: true, preventScrollReset: true });
  }, [choice, params, setParams]);

  // Scroll to the detail when a strategy is chosen, and on arrival when the address named one.
  const arrivedWithStrat = useRef(params.has('strat') && !location.hash);
  const shownKey = useRef<string | null>(null);
  useEffect(() => {
    const first = shownKey.current === null;
    shownKey.current = choice.key;
    if (first && !arrivedWithStrat.current) return;
    const timer = setTimeout(() => scrollToId('strategie'), 0);
    return () => clearTimeout(timer);
  }, [choice.key]);
  useEffect(() => {
    if (!location.hash) return;
    const timer = setTimeout(() => scrollToHash(location.hash), 0);
    return () => clearTimeout(timer);
  }, [location.hash]);

  const choose = (key: string) => {
    setUnknownAsked(null);
    setParams(searchWithStrat(params, key), { preventScrollReset: true });
    toc.closeOnPhone();
  };

  return (
    <div className="reference-page strategy-docs-page">
      <PageMeta title={`${doc.title} · Documentation des stratégies`} />
      <Toc state={toc} testId="strategy-toc">
        <p className="toc-heading">Cette stratégie</p>
        <TocAnchors sections={DETAIL_SECTIONS} state={toc} />
        <p className="toc-heading">Toutes les stratégies</p>
        {FAMILIES.map((family) => (
          <div key={family.family} className="toc-family">
            <p className="toc-family-label">{family.label}</p>
            <ul>
              {family.keys.map((key) => (
                <li key={key}>
                  <Link
                    to={strategyDocHref(key)}
                    preventScrollReset
                    aria-current={key === doc.key ? 'page' : undefined}
                    className={key === doc.key ? 'active' : undefined}
                    onClick={(e) => {
                      e.preventDefault();
                      choose(key);
                    }}
                  >
                    {strategyDoc(key)!.title}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </Toc>

      <div className="reference-content">
        <header className="docs-head">
          <p className="eyebrow">
            <Link to="/a-savoir#techniques">
              <ArrowLeft size={14} aria-hidden="true" /> À savoir
            </Link>
          </p>
          <h1>Documentation des stratégies</h1>
          <p className="muted">
            Les {STRATEGY_DOCS.length} stratégies officielles de bt : ce que chacune détecte, quand elle entre et chacun de ses paramètres, tels que le moteur de backtest les applique.
          </p>
          <label className="strategy-select">
            Stratégie
            <select value={doc.key} onChange={(e) => choose(e.target.value)} data-testid="strategy-select">
              {FAMILIES.map((family) => (
                <optgroup key={family.family} label={family.label}>
                  {family.keys.map((key) => (
                    <option key={key} value={key}>
                      {strategyDoc(key)!.title}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          </label>
          {unknownAsked ? (
            <p className="alert alert-warn small" role="status">
              Stratégie inconnue : « {unknownAsked} ». Voici la première de la liste.
            </p>
          ) : null}
        </header>

        <article className="card strategy-detail" id="strategie" aria-labelledby="strategy-title" data-testid="strategy-detail" data-key={doc.key}>
          <p className="eyebrow">{doc.familyLabel}</p>
          <h2 id="strategy-title">
            {doc.title} <ToCompleteBadge doc={doc} />
          </h2>
          <p className="strategy-subtitle">{doc.subtitle}</p>
          <ul className="tag-list" aria-label="Étiquettes">
            {doc.tags.map((tag) => (
              <li key={tag} className="tag">
                {tag}
              </li>
            ))}
          </ul>
          <p className="mono small muted">Clé : {doc.key}</p>
          <p>{doc.summary}</p>

          <section id="conditions">
            <h3>Conditions d’entrée</h3>
            <ol className="rule-list">
              {doc.entryConditions.map((rule) => (
                <li key={rule}>{rule}</li>
              ))}
            </ol>
          </section>
          <section id="definitions">
            <h3>Définitions</h3>
            <dl className="glossary">
              {doc.definitions.map((d) => (
                <div key={d.term}>
                  <dt>{d.term}</dt>
                  <dd>{d.text}</dd>
                </div>
              ))}
            </dl>
          </section>
          <section id="stop-interne">
            <h3>Stop interne (SL 0)</h3>
            <p>{doc.internalStop}</p>
          </section>
          <section id="parametres">
            <h3>Paramètres</h3>
            <ParamTable doc={doc} />
          </section>
          <div className="row-actions">
            <Link className="btn btn-primary" to="/backtest">
              <FlaskConical size={16} aria-hidden="true" /> Tester sur /backtest
            </Link>
          </div>
        </article>
      </div>
    </div>
  );
}
