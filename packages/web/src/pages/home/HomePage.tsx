import { lazy, Suspense, useEffect, useState } from 'react';
import { ChartColumn, CircleX, Clock, Compass, Flame, Timer, TriangleAlert, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router-dom';
import { PageMeta } from '../../components/PageMeta.js';
import { strategyLabel } from '../../lib/catalogue.js';
import { calls } from '../../runtime.js';
import { TOP_STRATEGIES, loadTopStrategies, type TopMessageTone, type TopStrategiesOutcome, type TopStrategyCard } from './topStrategies.js';

/** The icon before each top-strategies message (none for the plain "nothing found"). */
const MESSAGE_ICON: Record<TopMessageTone, LucideIcon | null> = { failed: null, empty: TriangleAlert, timeout: Timer, other: CircleX };

function TopMessage({ text, tone }: { text: string; tone: TopMessageTone }) {
  const Icon = MESSAGE_ICON[tone];
  return (
    <p className={`top-message top-message-${tone}`} data-testid="top-message">
      {Icon ? <Icon size={18} aria-hidden="true" className="inline-icon" /> : null}
      {text}
    </p>
  );
}

const PublicStatsModal = lazy(() => import('../stats/PublicStatsModal.js'));

function Skeleton() {
  return (
    <div className="card strategy-card skeleton" aria-hidden="true">
      <div className="sk-line w60" />
      <div className="sk-line w40" />
      <div className="sk-line w80" />
      <div className="sk-line w30" />
    </div>
  );
}

function StrategyCard({ card, onOpen }: { card: TopStrategyCard; onOpen: () => void }) {
  return (
    <button type="button" className={`card strategy-card${card.hot ? ' hot' : ''}`} onClick={onOpen} data-testid="top-strategy-card">
      <div className="strategy-card-head">
        <span className="pair">{card.pair}</span>
        <span className="tf-badge">{card.timeframe}</span>
        {card.hot ? (
          <span className="hot-badge" title="Win rate TP1 ≥ 70 %">
            <Flame size={15} aria-hidden="true" /> Hot
          </span>
        ) : null}
      </div>
      <div className="strategy-name">{card.strategy}</div>
      <div className="period">{card.period}</div>
      <div className="strategy-card-figures">
        <div>
          <span className="label">Win rate TP1 (RR 1:1)</span>
          <span className={`winrate ${card.winrateClass}`}>{card.winrateText}</span>
        </div>
        <div>
          <span className="label">Trades</span>
          <span className="trades">{card.tradesText}</span>
        </div>
      </div>
    </button>
  );
}

function TopStrategies() {
  const [outcome, setOutcome] = useState<TopStrategiesOutcome | null>(null);
  const [open, setOpen] = useState<TopStrategyCard | null>(null);

  useEffect(() => {
    let alive = true;
    void loadTopStrategies({
      fetchTop: (signal) => calls.topStrategies(signal),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      setTimer: (fn, ms) => {
        const handle = setTimeout(fn, ms);
        return () => clearTimeout(handle);
      },
      strategyLabel,
    }).then((result) => alive && setOutcome(result));
    return () => {
      alive = false;
    };
  }, []);

  return (
    <section className="top-strategies" aria-labelledby="top-title">
      <h2 id="top-title">Top stratégies</h2>
      <p className="muted">Les meilleurs résultats récents, calculés sur les données officielles. Clique sur une carte pour voir ses statistiques.</p>
      {outcome === null ? (
        <div className="card-grid" aria-busy="true">
          {Array.from({ length: TOP_STRATEGIES.skeletons }, (_, i) => <Skeleton key={i} />)}
        </div>
      ) : outcome.kind === 'message' ? (
        <TopMessage text={outcome.message} tone={outcome.tone} />
      ) : (
        <div className="card-grid">
          {outcome.cards.map((card, i) => (
            <StrategyCard key={`${card.folder ?? ''}-${i}`} card={card} onOpen={() => setOpen(card)} />
          ))}
        </div>
      )}
      {open ? (
        <Suspense fallback={null}>
          <PublicStatsModal folder={open.folder} title={`${open.pair} ${open.timeframe} — ${open.strategy}`} onClose={() => setOpen(null)} />
        </Suspense>
      ) : null}
    </section>
  );
}

export default function HomePage() {
  return (
    <div className="home">
      <PageMeta title="Backtests et Golden Hours" />
      <section className="hero">
        <p className="eyebrow">Backtests sans code · crypto, forex, indices, matières premières</p>
        <h1>
          Trouve les heures où ta stratégie <span className="accent">gagne vraiment</span>.
        </h1>
        <p className="hero-sub">
          Order blocks, fair value gaps, englobantes, filtres RSI et EMA : teste une stratégie d’entrée sur des données propres et découvre
          ses Golden Hours, ses meilleures sessions et ses meilleurs jours.
        </p>
        <div className="hero-actions">
          <Link to="/backtest" className="btn btn-primary btn-large" data-testid="hero-cta">
            Lancer mon premier backtest
          </Link>
          <Link to="/a-savoir" className="btn btn-ghost btn-large">
            Comment ça marche
          </Link>
        </div>
      </section>

      <section className="value-block" aria-label="Ce que bt t’apporte">
        <div className="value-item">
          <h3>
            <Clock size={20} aria-hidden="true" className="value-icon" /> Golden Hours
          </h3>
          <p>Le win rate de ta stratégie heure par heure, session par session et jour par jour, avec son intervalle de confiance.</p>
        </div>
        <div className="value-item">
          <h3>
            <Compass size={20} aria-hidden="true" className="value-icon" /> Contexte et filtrage
          </h3>
          <p>24 stratégies officielles, des filtres RSI et EMA, tes propres stratégies générées à partir d’une description ou importées en .py.</p>
        </div>
        <div className="value-item">
          <h3>
            <ChartColumn size={20} aria-hidden="true" className="value-icon" /> Clarté actionnable
          </h3>
          <p>Un classeur .xlsx par analyse : configuration, résumé global, sessions, heures, jours, TP2 et la liste des trades.</p>
        </div>
      </section>

      <TopStrategies />

      <p className="disclaimer">bt ne fournit aucun conseil financier personnalisé. Les performances passées ne préjugent pas des performances futures.</p>
    </div>
  );
}
