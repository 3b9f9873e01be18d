/**
 * /admin (docs/product.md §3.2): a sidebar of seven tabs, each deep-linkable with
 * ?tab= (users, history, stats, backtests, strategies, disk, maintenance). On a phone the sidebar
 * becomes a select. The route's guard (session/guards.tsx) lets only admins in; every call is
 * checked again by the server.
 */
import { useSearchParams } from 'react-router-dom';
import { Activity, ChartColumn, FlaskConical, HardDrive, History, Users, Wrench } from 'lucide-react';
import { PageMeta } from '../../components/PageMeta.js';
import { useRovingGroup } from '../../lib/useRovingGroup.js';
import { BacktestsTab } from '../../features/admin/BacktestsTab.js';
import { DiskTab } from '../../features/admin/DiskTab.js';
import { HistoryTab } from '../../features/admin/HistoryTab.js';
import { MaintenanceTab } from '../../features/admin/MaintenanceTab.js';
import { StatsTab } from '../../features/admin/StatsTab.js';
import { StrategiesTab } from '../../features/admin/StrategiesTab.js';
import { ADMIN_TABS, tabOf, type AdminTab } from '../../features/admin/tabs.js';
import { UsersTab } from '../../features/admin/UsersTab.js';
import './admin.css';

const ICONS: Record<AdminTab, typeof Users> = {
  users: Users,
  history: History,
  stats: ChartColumn,
  backtests: Activity,
  strategies: FlaskConical,
  disk: HardDrive,
  maintenance: Wrench,
};

function TabContent({ tab }: { tab: AdminTab }) {
  switch (tab) {
    case 'users':
      return <UsersTab />;
    case 'history':
      return <HistoryTab />;
    case 'stats':
      return <StatsTab />;
    case 'backtests':
      return <BacktestsTab />;
    case 'strategies':
      return <StrategiesTab />;
    case 'disk':
      return <DiskTab />;
    case 'maintenance':
      return <MaintenanceTab />;
  }
}

export default function AdminPage() {
  const [params, setParams] = useSearchParams();
  const tab = tabOf(params.get('tab'));
  // A click adds a history entry (Back returns to the previous tab); the arrows replace it, or
  // walking down the sidebar would leave one entry per tab passed.
  const choose = (next: AdminTab, replace = false) => {
    const copy = new URLSearchParams(params);
    copy.set('tab', next);
    setParams(copy, { replace });
  };
  // The sidebar is a vertical tablist (WAI-ARIA tabs): one Tab stop, Up/Down, Home/End.
  const keys = useRovingGroup(ADMIN_TABS.length, ADMIN_TABS.findIndex((t) => t.key === tab), (index) => choose(ADMIN_TABS[index].key, true), 'vertical');
  return (
    <div className="admin-page" data-testid="admin-page">
      <PageMeta title="Administration" noindex />
      <h1>Administration</h1>
      <div className="admin-layout">
        <nav className="admin-sidebar" aria-label="Onglets d’administration">
          <label className="admin-tab-select">
            <span className="sr-only">Onglet</span>
            <select value={tab} onChange={(e) => choose(e.target.value as AdminTab)} data-testid="admin-tab-select">
              {ADMIN_TABS.map((t) => (
                <option key={t.key} value={t.key}>
                  {t.label}
                </option>
              ))}
            </select>
          </label>
          <ul className="admin-tab-list" role="tablist" aria-orientation="vertical" aria-label="Onglets d’administration" onKeyDown={keys.onKeyDown}>
            {ADMIN_TABS.map((t, index) => {
              const Icon = ICONS[t.key];
              return (
                <li key={t.key} role="presentation">
                  <button
                    type="button"
                    role="tab"
                    id={`admin-tab-${t.key}`}
                    aria-selected={tab === t.key}
                    aria-controls="admin-tabpanel"
                    {...keys.item(index)}
                    className={`admin-tab-button${tab === t.key ? ' active' : ''}`}
                    onClick={() => choose(t.key)}
                    data-testid={`admin-tab-${t.key}`}
                  >
                    <Icon size={16} aria-hidden="true" /> {t.label}
                  </button>
                </li>
              );
            })}
          </ul>
        </nav>
        <div className="admin-main" role="tabpanel" id="admin-tabpanel" aria-labelledby={`admin-tab-${tab}`}>
          <TabContent key={tab} tab={tab} />
        </div>
      </div>
    </div>
  );
}
