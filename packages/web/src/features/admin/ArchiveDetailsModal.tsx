import { Download } from 'lucide-react';
import type { ArchiveEntry } from '../../api/admin.js';
import { Modal } from '../../components/Modal.js';
import { admin } from './client.js';
import { formatInstant, formatSize } from './format.js';
import { failure, MSG } from './messages.js';
import { ErrorLine, Loading } from './ui.js';
import { useLoad } from './useLoad.js';

/** One archived generation or import: its fields, its meta, its files and its source. */
export function ArchiveDetailsModal({ entry, onClose, onDownload }: { entry: ArchiveEntry; onClose: () => void; onDownload: () => void }) {
  const loaded = useLoad(() => admin.archiveDetail(entry.type, entry.id, entry.timestamp), [entry.type, entry.id, entry.timestamp]);
  const e = loaded.data ?? entry;
  const meta = e.meta ?? {};
  return (
    <Modal
      title={`Archive : ${e.display_name}`}
      onClose={onClose}
      wide
      footer={
        <button type="button" className="btn btn-primary" disabled={!e.files?.length} onClick={onDownload} data-testid="archive-details-download">
          <Download size={16} aria-hidden="true" /> Télécharger
        </button>
      }
    >
      <div data-testid="archive-details-modal">
        {loaded.loading ? <Loading /> : null}
        {loaded.error ? <ErrorLine text={failure(loaded.error, MSG.detailsLoad)} /> : null}
        <dl className="summary-list">
          <dt>Type</dt>
          <dd>{e.type}</dd>
          <dt>Stratégie</dt>
          <dd className="mono">{e.strategy_id}</dd>
          <dt>Utilisateur</dt>
          <dd>{e.user ?? (e.user_id ? `#${e.user_id}` : '—')}</dd>
          <dt>Date</dt>
          <dd>{formatInstant(e.created_at ?? e.timestamp * 1000)}</dd>
          <dt>Stop</dt>
          <dd>{e.sl_mode ?? '—'}</dd>
          <dt>Statut</dt>
          <dd>{e.status ?? '—'}</dd>
          <dt>Méta</dt>
          <dd>{e.meta_present ? 'présente' : 'absente'}</dd>
          <dt>Note</dt>
          <dd>{e.note || '—'}</dd>
          <dt>Fichiers</dt>
          <dd>{e.files?.length ? e.files.map((f) => `${f.name}${typeof f.bytes === 'number' ? ` (${formatSize(f.bytes)})` : ''}`).join(', ') : MSG.noFile}</dd>
        </dl>
        {Object.keys(meta).length ? (
          <details>
            <summary>Méta</summary>
            <pre className="admin-pre">{JSON.stringify(meta, null, 2)}</pre>
          </details>
        ) : null}
        {loaded.data?.source ? (
          <>
            <h3>Source</h3>
            <pre className="admin-pre" data-testid="archive-source">{loaded.data.source}</pre>
          </>
        ) : null}
      </div>
    </Modal>
  );
}
