/**
 * Historique: the global history, 5 lines unless 'Tout afficher', which shows the lines loaded and
 * loads the next pages; the purchase history's reset.
 */
import { useState } from 'react';
import { RotateCcw } from 'lucide-react';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { admin, notify } from './client.js';
import { HistoryTable } from './HistoryTable.js';
import { failure, MSG } from './messages.js';
import { shownOf } from './pages.js';
import { HISTORY_PAGES, HISTORY_PREVIEW } from './rules.js';
import { Empty, ErrorLine, Loading, MoreRows, SectionHead } from './ui.js';
import { usePages } from '../paging/usePages.js';

export function HistoryTab() {
  // The reset bumps the epoch: the list starts again from its first page.
  const [epoch, setEpoch] = useState(0);
  const loaded = usePages((page) => admin.globalHistory(page.limit, page.offset), (line) => line.id, HISTORY_PAGES, [epoch]);
  const [all, setAll] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [resetError, setResetError] = useState<string | null>(null);
  const list = loaded.list;
  const items = list?.items ?? [];
  const shown = all ? items : items.slice(0, HISTORY_PREVIEW);

  async function reset() {
    setBusy(true);
    setResetError(null);
    try {
      const answer = await admin.resetHistory();
      notify(answer.detail ?? 'Historique réinitialisé.');
      setConfirming(false);
      setEpoch((e) => e + 1);
    } catch (error) {
      setResetError(failure(error, MSG.globalResetFailed));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="admin-tab" data-testid="admin-history">
      <SectionHead title="Historique global">
        {items.length > HISTORY_PREVIEW ? (
          <button type="button" className="btn btn-small" onClick={() => setAll(!all)} data-testid="history-toggle">
            {all ? `Afficher les ${HISTORY_PREVIEW} dernières` : 'Tout afficher'}
          </button>
        ) : null}
        <button type="button" className="btn btn-small btn-danger" onClick={() => { setResetError(null); setConfirming(true); }} data-testid="history-reset">
          <RotateCcw size={14} aria-hidden="true" /> Réinitialiser l’historique d’achats
        </button>
      </SectionHead>
      {list ? <p className="muted small" data-testid="history-total">{shownOf(shown.length, list.total ?? items.length, 'ligne(s)')}</p> : null}
      {loaded.loading && !list ? <Loading /> : null}
      {loaded.error ? <ErrorLine text={failure(loaded.error, MSG.globalHistoryLoad)} /> : null}
      {list && items.length === 0 ? <Empty text={MSG.noEntry} /> : null}
      {shown.length > 0 ? <HistoryTable lines={shown} withUser testId="global-history-table" /> : null}
      {all ? <MoreRows paging={loaded} sizes={HISTORY_PAGES} testId="history-more" /> : null}
      {confirming ? (
        <ConfirmDialog
          title="Réinitialiser l’historique d’achats ?"
          text="L’historique de tous les utilisateurs sera vidé dans la console. Les abonnements et les crédits restent inchangés."
          confirmLabel="Réinitialiser"
          danger
          busy={busy}
          error={resetError}
          onConfirm={() => void reset()}
          onClose={() => setConfirming(false)}
        />
      ) : null}
    </section>
  );
}
