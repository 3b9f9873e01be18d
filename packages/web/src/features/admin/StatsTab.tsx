/**
 * Statistiques: the overview KPIs of a range (default: the last 30 days), each opening its
 * details; the advanced analyses; the heatmap; the ledger; reset and rebuild of the event log.
 */
import { useMemo, useState } from 'react';
import { ChartColumn, DatabaseZap, Eraser } from 'lucide-react';
import type { HeatmapRow, Overview } from '../../api/admin.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { AnalysesModal } from './AnalysesModal.js';
import { admin, notify } from './client.js';
import { PagedDetails } from './DetailsTable.js';
import { formatCount, formatEur } from './format.js';
import { Heatmap } from './Heatmap.js';
import { KpiDetailsModal } from './KpiDetailsModal.js';
import { failure, MSG } from './messages.js';
import { defaultRange, rangeQuery } from './range.js';
import { DETAILS_PAGES } from './rules.js';
import { RangeBar } from './RangeBar.js';
import { ErrorLine, Kpi, Loading, SectionHead } from './ui.js';
import { useLoad } from './useLoad.js';

const KPIS: readonly { key: keyof Overview; label: string; money?: boolean; details: boolean }[] = [
  { key: 'total_sales_eur', label: 'Ventes', money: true, details: true },
  { key: 'refunds_eur', label: 'Remboursements', money: true, details: true },
  { key: 'net_sales_eur', label: 'Ventes nettes', money: true, details: false },
  { key: 'total_credits_bought', label: 'Crédits achetés', details: true },
  { key: 'credits_offered', label: 'Crédits offerts', details: true },
  { key: 'backtests_count', label: 'Backtests', details: true },
  { key: 'total_users', label: 'Utilisateurs', details: true },
  { key: 'new_users', label: 'Nouveaux utilisateurs', details: true },
  { key: 'active_now', label: 'Actifs maintenant', details: true },
  { key: 'deleted_users', label: 'Comptes supprimés', details: true },
  { key: 'unsubscribed_users', label: 'Désabonnements', details: true },
  { key: 'failed_payments', label: 'Paiements échoués', details: true },
];

const LEDGERS = [
  { key: 'sales', label: 'Ventes' },
  { key: 'offered', label: 'Crédits offerts' },
  { key: 'users_all', label: 'Tous les utilisateurs' },
] as const;

/** The fallback totals (GET global_stats), read from the tables when the event log cannot answer. */
const GLOBAL_LABELS: Record<string, string> = {
  total_sales_eur: 'Ventes (total)',
  refunds_eur: 'Remboursements (total)',
  net_sales_eur: 'Ventes nettes (total)',
  total_credits_bought: 'Crédits achetés (total)',
  credits_offered: 'Crédits offerts (total)',
  credits_spent: 'Crédits dépensés (total)',
  credits_in_balances: 'Crédits en solde',
  backtests_count: 'Backtests (total)',
  total_users: 'Utilisateurs',
  deleted_users: 'Comptes supprimés',
  active_now: 'Actifs maintenant',
  failed_payments: 'Paiements échoués',
};

type Confirm = 'reset' | 'rebuild' | null;

export function StatsTab() {
  const [range, setRange] = useState(() => defaultRange(Date.now()));
  const query = useMemo(() => rangeQuery(range), [range]);
  const key = JSON.stringify(query);
  const [epoch, setEpoch] = useState(0);
  const overview = useLoad(() => admin.overview(query), [key, epoch]);
  const heatmap = useLoad(() => admin.breakdown<HeatmapRow>('heatmap', query), [key, epoch]);
  // The fallback totals, read from the tables when the event log cannot answer.
  const fallback = useLoad(() => (overview.error && !overview.forbidden ? admin.globalStats() : Promise.resolve(null)), [overview.error]);
  const [ledger, setLedger] = useState<(typeof LEDGERS)[number]['key']>('sales');
  const [details, setDetails] = useState<{ kpi: string; label: string } | null>(null);
  const [analyses, setAnalyses] = useState(false);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [busy, setBusy] = useState(false);
  const [confirmError, setConfirmError] = useState<string | null>(null);

  async function run() {
    setBusy(true);
    setConfirmError(null);
    try {
      const answer = confirm === 'reset' ? await admin.resetMetrics() : await admin.rebuildMetrics();
      notify(answer.detail ?? 'OK');
      setConfirm(null);
      setEpoch((e) => e + 1);
    } catch (error) {
      setConfirmError(confirm === 'rebuild' ? failure(error, MSG.rebuildFailed) : failure(error, MSG.connection));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="admin-tab" data-testid="admin-stats">
      <SectionHead title="Statistiques">
        <button type="button" className="btn btn-small" onClick={() => setAnalyses(true)} data-testid="open-analyses">
          <ChartColumn size={14} aria-hidden="true" /> Analyses avancées
        </button>
        <button type="button" className="btn btn-small" onClick={() => { setConfirmError(null); setConfirm('rebuild'); }} data-testid="stats-rebuild">
          <DatabaseZap size={14} aria-hidden="true" /> Reconstruire
        </button>
        <button type="button" className="btn btn-small btn-danger" onClick={() => { setConfirmError(null); setConfirm('reset'); }} data-testid="stats-reset">
          <Eraser size={14} aria-hidden="true" /> Réinitialiser
        </button>
      </SectionHead>
      <RangeBar value={range} onChange={setRange} />
      {overview.loading && !overview.data ? <Loading /> : null}
      {overview.error ? <ErrorLine text={failure(overview.error, MSG.dataLoad)} /> : null}
      {overview.data ? (
        <div className="admin-kpis" data-testid="kpis">
          {KPIS.map((k) => {
            const value = overview.data![k.key];
            return (
              <Kpi
                key={k.key}
                label={k.label}
                value={k.money ? formatEur(value) : formatCount(value)}
                onClick={k.details ? () => setDetails({ kpi: k.key, label: k.label }) : undefined}
                testId={`kpi-${k.key}`}
              />
            );
          })}
        </div>
      ) : null}
      {fallback.data ? (
        <div className="admin-kpis" data-testid="global-stats">
          {Object.entries(fallback.data)
            .filter(([k, v]) => typeof v === 'number' && k in GLOBAL_LABELS)
            .map(([k, v]) => (
              <Kpi key={k} label={GLOBAL_LABELS[k]} value={k.endsWith('_eur') ? formatEur(v) : formatCount(v)} />
            ))}
        </div>
      ) : null}

      {heatmap.error ? <ErrorLine text={failure(heatmap.error, MSG.dataLoad)} /> : null}
      {heatmap.data ? <Heatmap rows={heatmap.data.items} range={query} /> : null}

      <SectionHead title="Registre">
        <label className="admin-inline">
          <span className="sr-only">Registre</span>
          <select value={ledger} onChange={(e) => setLedger(e.target.value as typeof ledger)} data-testid="ledger-select">
            {LEDGERS.map((l) => (
              <option key={l.key} value={l.key}>
                {l.label}
              </option>
            ))}
          </select>
        </label>
      </SectionHead>
      <PagedDetails load={(limit, offset) => admin.ledger(ledger, query, { limit, offset })} deps={[ledger, key, epoch]} sizes={DETAILS_PAGES} testId="ledger-table" />

      {details ? <KpiDetailsModal kpi={details.kpi} label={details.label} range={query} onClose={() => setDetails(null)} /> : null}
      {analyses ? <AnalysesModal initial={range} onClose={() => setAnalyses(false)} /> : null}
      {confirm ? (
        <ConfirmDialog
          title={confirm === 'reset' ? 'Réinitialiser les statistiques ?' : 'Reconstruire les statistiques ?'}
          text={
            confirm === 'reset'
              ? 'Le journal des événements sera vidé. Les comptes, les crédits et les backtests ne changent pas.'
              : 'Le journal sera complété à partir des comptes, du registre de crédits et des backtests.'
          }
          confirmLabel={confirm === 'reset' ? 'Réinitialiser' : 'Reconstruire'}
          danger={confirm === 'reset'}
          busy={busy}
          error={confirmError}
          onConfirm={() => void run()}
          onClose={() => setConfirm(null)}
        />
      ) : null}
    </section>
  );
}
