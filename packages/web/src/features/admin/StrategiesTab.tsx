/**
 * Stratégies (archive): the gpt and import archives, their overview metrics, the recent entries
 * (5, then 10 more), details, download, soft delete and 'Restaurer tout' per type.
 */
import { useState } from 'react';
import { ArchiveRestore, Download, Eye, Trash2 } from 'lucide-react';
import type { ArchiveEntry, ArchiveType } from '../../api/admin.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { formatCompactFr } from '../../lib/format.js';
import { ArchiveDetailsModal } from './ArchiveDetailsModal.js';
import { admin, notify, save } from './client.js';
import { formatCount, formatInstant } from './format.js';
import { failure, MSG } from './messages.js';
import { Clamped, Empty, ErrorLine, Kpi, Loading, SectionHead, TableBox } from './ui.js';
import { ARCHIVE_PAGES } from './rules.js';
import { useLoad } from './useLoad.js';
import { usePages } from '../paging/usePages.js';

const TYPES: readonly { type: ArchiveType; label: string }[] = [
  { type: 'gpt', label: 'Générées (gpt)' },
  { type: 'import', label: 'Importées (import)' },
];

/** 'Restauration (tout) impossible.', with the server's reason when it gave one. */
export function restoreFailure(error: unknown): string {
  const why = failure(error, '');
  return why ? `${MSG.restoreAllFailed} ${why}` : MSG.restoreAllFailed;
}

function ArchiveList({ type, label, epoch, onChanged }: { type: ArchiveType; label: string; epoch: number; onChanged: () => void }) {
  // A deletion or a restoration bumps the epoch: the list starts again from its first page.
  const loaded = usePages((page) => admin.archiveRecent(type, page.limit, page.offset), (entry) => entry.id, ARCHIVE_PAGES, [type, epoch]);
  const [detail, setDetail] = useState<ArchiveEntry | null>(null);
  const [deleting, setDeleting] = useState<ArchiveEntry | null>(null);
  const [restoring, setRestoring] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const items = loaded.list?.items ?? [];

  async function download(entry: ArchiveEntry) {
    setError(null);
    try {
      save(await admin.archiveDownload(type, entry.id, entry.timestamp, entry.files?.[0]?.name ?? `${entry.strategy_id}.py`));
    } catch (e) {
      setError(MSG.downloadImpossible(failure(e, MSG.connection)));
    }
  }

  async function remove() {
    if (!deleting) return;
    setBusy(true);
    setConfirmError(null);
    try {
      const answer = await admin.archiveDelete(type, deleting.id, deleting.timestamp);
      notify(answer.detail ?? 'Entrée supprimée.');
      setDeleting(null);
      onChanged();
    } catch (e) {
      setConfirmError(failure(e, MSG.targetedDeleteFailed));
    } finally {
      setBusy(false);
    }
  }

  async function restoreAll() {
    setBusy(true);
    setConfirmError(null);
    try {
      const answer = await admin.archiveRestoreAll(type);
      notify(answer.detail ?? 'Entrées restaurées.');
      setRestoring(false);
      onChanged();
    } catch (e) {
      setConfirmError(restoreFailure(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="admin-archive" data-testid={`archive-${type}`}>
      <SectionHead title={label}>
        <button type="button" className="btn btn-small" onClick={() => { setConfirmError(null); setRestoring(true); }} data-testid="archive-restore-all">
          <ArchiveRestore size={14} aria-hidden="true" /> Restaurer tout
        </button>
      </SectionHead>
      <ErrorLine text={error} />
      {loaded.loading && !loaded.list ? <Loading /> : null}
      {loaded.error ? <ErrorLine text={failure(loaded.error, MSG.loadFailed)} /> : null}
      {loaded.list && items.length === 0 ? <Empty text={MSG.noStrategy} /> : null}
      {items.length > 0 ? (
        <TableBox>
          <table className="sheet-table admin-table">
            <thead>
              <tr>
                <th>Date</th>
                <th>Nom</th>
                <th>Stratégie</th>
                <th>Utilisateur</th>
                <th>Statut</th>
                <th>Stop</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {items.map((entry) => (
                <tr key={`${entry.id}-${entry.timestamp}`} data-testid="archive-row" data-id={entry.id}>
                  <td>{formatInstant(entry.created_at ?? entry.timestamp * 1000)}</td>
                  <td>
                    <Clamped text={entry.display_name} />
                  </td>
                  <td className="mono">{entry.strategy_id}</td>
                  <td>{entry.user ?? (entry.user_id ? `#${entry.user_id}` : '—')}</td>
                  <td>{entry.status === 'failed' ? <span className="badge admin-failed">échec</span> : <span className="badge badge-active">ok</span>}</td>
                  <td>{entry.sl_mode ?? '—'}</td>
                  <td>
                    <div className="admin-row-actions">
                      <button type="button" className="btn btn-small" onClick={() => setDetail(entry)} aria-label={`Détails de ${entry.display_name}`} data-testid="archive-details">
                        <Eye size={14} aria-hidden="true" />
                      </button>
                      <button type="button" className="btn btn-small" disabled={!entry.files?.length} onClick={() => void download(entry)} aria-label={`Télécharger ${entry.display_name}`} data-testid="archive-download">
                        <Download size={14} aria-hidden="true" />
                      </button>
                      <button type="button" className="btn btn-small btn-danger" onClick={() => { setConfirmError(null); setDeleting(entry); }} aria-label={`Supprimer ${entry.display_name}`} data-testid="archive-delete">
                        <Trash2 size={14} aria-hidden="true" />
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableBox>
      ) : null}
      {loaded.more ? (
        <button type="button" className="btn btn-small admin-more" onClick={loaded.loadMore} disabled={loaded.loading} data-testid="archive-more">
          {`Afficher ${ARCHIVE_PAGES.next} de plus`}
        </button>
      ) : null}
      {detail ? <ArchiveDetailsModal entry={detail} onClose={() => setDetail(null)} onDownload={() => void download(detail)} /> : null}
      {deleting ? (
        <ConfirmDialog
          title="Supprimer cette entrée ?"
          text={`« ${deleting.display_name} » sortira des listes et des métriques ; son fichier reste et « Restaurer tout » la rend.`}
          confirmLabel="Supprimer"
          danger
          busy={busy}
          error={confirmError}
          onConfirm={() => void remove()}
          onClose={() => setDeleting(null)}
        />
      ) : null}
      {restoring ? (
        <ConfirmDialog
          title="Restaurer tout ?"
          text={`Toutes les entrées supprimées du type ${type} seront restaurées.`}
          confirmLabel="Restaurer tout"
          busy={busy}
          error={confirmError}
          onConfirm={() => void restoreAll()}
          onClose={() => setRestoring(false)}
        />
      ) : null}
    </div>
  );
}

const seconds = (v: number | null | undefined) => (typeof v === 'number' ? `${formatCompactFr(v, 1)}\u00a0s` : '—');
const decimal = (v: number | null | undefined) => (typeof v === 'number' ? formatCompactFr(v, 2) : '—');

export function StrategiesTab() {
  const [epoch, setEpoch] = useState(0);
  const overview = useLoad(() => admin.archiveOverview(), [epoch]);
  const changed = () => setEpoch((e) => e + 1);
  return (
    <section className="admin-tab" data-testid="admin-strategies">
      <SectionHead title="Stratégies archivées" />
      {overview.loading && !overview.data ? <Loading /> : null}
      {overview.error ? <ErrorLine text={failure(overview.error, MSG.dataLoad)} /> : null}
      {overview.data?.data ? (
        <div className="admin-archive-overview">
          {TYPES.map(({ type, label }) => {
            const o = overview.data!.data[type];
            return (
              <div key={type} className="admin-kpis admin-kpis-small" data-testid={`archive-overview-${type}`}>
                <Kpi label={`${label} : archivées`} value={formatCount(o?.total_archived)} testId={`archive-total-${type}`} />
                <Kpi label="Échecs OpenAI" value={formatCount(o?.openai_failures)} />
                <Kpi label="Génération moyenne" value={seconds(o?.avg_generation_seconds)} />
                <Kpi label="Tentatives moyennes" value={decimal(o?.avg_attempts)} />
                <Kpi label="Échecs dry-run" value={formatCount(o?.dry_run_failures)} />
              </div>
            );
          })}
        </div>
      ) : null}
      {TYPES.map(({ type, label }) => (
        <ArchiveList key={type} type={type} label={label} epoch={epoch} onChanged={changed} />
      ))}
    </section>
  );
}
