/**
 * /dashboard (docs/product.md §2.2): tabs 'Mon dashboard' (the collapsible 'Mes épingles', 'Mes stratégies',
 * 'Mes backtests') and 'Mes CSV' (?tab=csv). The standalone pins wall 'Mes épingles' is
 * /dashboard?view=epingles: the route table (docs/product.md §3.2) has no path of its own for it.
 */
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { PageMeta } from '../../components/PageMeta.js';
import { usePins } from '../../features/pins/browserPins.js';
import { PinsWall } from '../../features/pins/PinsWall.js';
import { BacktestsSection } from './BacktestsSection.js';
import { CsvTab } from './CsvTab.js';
import { StrategiesSection } from './StrategiesSection.js';
import './dashboard.css';
import { useRovingGroup } from '../../lib/useRovingGroup.js';

export const PINS_VIEW = 'epingles';

function PinsPanel() {
  const [open, setOpen] = useState(false);
  const pins = usePins();
  return (
    <section className="dash-section pins-panel" data-testid="pins-panel">
      <div className="dash-section-head">
        <h2>
          Mes épingles <span className="muted small">({pins.length})</span>
        </h2>
        <div className="row-actions">
          {open ? (
            <Link className="btn btn-small btn-ghost" to={`/dashboard?view=${PINS_VIEW}`}>
              Pleine page
            </Link>
          ) : null}
          <button type="button" className="btn btn-small" aria-expanded={open} onClick={() => setOpen(!open)} data-testid="pins-toggle">
            {open ? 'Masquer' : 'Afficher'}
          </button>
        </div>
      </div>
      {open ? <PinsWall /> : null}
    </section>
  );
}

function StandalonePins() {
  return (
    <section className="dashboard-page">
      <PageMeta title="Mes épingles" noindex />
      <header className="page-head">
        <Link to="/dashboard" className="small">
          ← Mon dashboard
        </Link>
        <h1>Mes épingles</h1>
      </header>
      <PinsWall standalone />
    </section>
  );
}

type DashboardTab = 'dashboard' | 'csv';
const DASHBOARD_TABS: readonly DashboardTab[] = ['dashboard', 'csv'];

function DashboardTabs({ tab, select }: { tab: DashboardTab; select: (next: DashboardTab) => void }) {
  const keys = useRovingGroup(DASHBOARD_TABS.length, DASHBOARD_TABS.indexOf(tab), (index) => select(DASHBOARD_TABS[index]));
  return (
    <div className="tabs dash-tabs" role="tablist" aria-label="Dashboard" onKeyDown={keys.onKeyDown}>
      <button type="button" role="tab" aria-selected={tab === 'dashboard'} className={`tab${tab === 'dashboard' ? ' active' : ''}`} onClick={() => select('dashboard')} {...keys.item(0)}>
        Mon dashboard
      </button>
      <button type="button" role="tab" aria-selected={tab === 'csv'} className={`tab${tab === 'csv' ? ' active' : ''}`} onClick={() => select('csv')} {...keys.item(1)}>
        Mes CSV
      </button>
    </div>
  );
}

export default function DashboardPage() {
  const [params, setParams] = useSearchParams();
  if (params.get('view') === PINS_VIEW) return <StandalonePins />;
  const tab: DashboardTab = params.get('tab') === 'csv' ? 'csv' : 'dashboard';
  const select = (next: DashboardTab) => setParams(next === 'csv' ? { tab: 'csv' } : {}, { replace: true });
  return (
    <section className="dashboard-page">
      <PageMeta title="Dashboard" noindex />
      <DashboardTabs tab={tab} select={select} />
      {tab === 'csv' ? (
        <CsvTab />
      ) : (
        <>
          <PinsPanel />
          <StrategiesSection />
          <BacktestsSection />
        </>
      )}
    </section>
  );
}
