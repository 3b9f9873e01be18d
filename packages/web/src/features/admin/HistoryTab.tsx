/** Historique: the global history, 5 lines unless 'Tout afficher'; the purchase history's reset. */
import { useState } from 'react';
import { RotateCcw } from 'lucide-react';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { admin, notify } from './client.js';
import { HistoryTable } from './HistoryTable.js';
import { failure, MSG } from './messages.js';
import { Empty, ErrorLine, Loading, SectionHead } from './ui.js';
import { useLoad } from './useLoad.js';

export const HISTORY_PREVIEW = 5;

export function HistoryTab() {
  const loaded = useLoad(() => admin.globalHistory(), []);
  const [all, setAll] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [resetError, setResetError] = useState<string | null>(null);
  const items = loaded.data?.items ?? [];
  const shown = all ? items : items.slice(0, HISTORY_PREVIEW);

  async function reset() {
    setBusy(true);
    setResetError(null);
    try {
      const answer = await admin.resetHistory();
      notify(answer.detail ?? 'Historique réinitialisé.');
      setConfirming(false);
      loaded.reload();
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
      {loaded.data ? <p className="muted small" data-testid="history-total">{`${items.length} ligne(s)`}</p> : null}
      {loaded.loading && !loaded.data ? <Loading /> : null}
      {loaded.error ? <ErrorLine text={failure(loaded.error, MSG.globalHistoryLoad)} /> : null}
      {loaded.data && items.length === 0 ? <Empty text={MSG.noEntry} /> : null}
      {shown.length > 0 ? <HistoryTable lines={shown} withUser testId="global-history-table" /> : null}
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
