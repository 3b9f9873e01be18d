/**
 * Payments to settle (docs/admin.md "Payments to settle"): the payment situations that need the
 * operator, open ones first; each closes with a note once it is settled (refunded, extended,
 * decided). The Maintenance tab shows it first.
 */
import { useState } from 'react';
import { Check } from 'lucide-react';
import type { PaymentAttentionItem } from '../../api/admin.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { usePages } from '../paging/usePages.js';
import { admin, notify } from './client.js';
import { formatInstant } from './format.js';
import { failure, MSG } from './messages.js';
import { shownOf } from './pages.js';
import { ATTENTION_PAGES, attentionAmount } from './rules.js';
import { Empty, ErrorLine, MoreRows, SectionHead, TableBox } from './ui.js';

const NOTE_MAX = 500;

function ResolveDialog({ item, onClose, onResolved }: { item: PaymentAttentionItem; onClose: () => void; onResolved: (item: PaymentAttentionItem) => void }) {
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function resolve() {
    setBusy(true);
    setError(null);
    try {
      const answer = await admin.resolvePaymentAttention(item.id, note.trim());
      notify(answer.detail ?? 'Situation de paiement close.');
      onResolved(answer.item);
    } catch (e) {
      setError(failure(e, MSG.loadFailed));
    } finally {
      setBusy(false);
    }
  }
  return (
    <ConfirmDialog
      title="Clore cette situation ?"
      text={item.label}
      confirmLabel="Clore"
      busy={busy}
      error={error}
      onConfirm={() => void resolve()}
      onClose={onClose}
      confirmTestId="attention-resolve-confirm"
    >
      <p className="muted small mono">{item.message}</p>
      <label>
        Ce qui a été fait (facultatif)
        <textarea value={note} maxLength={NOTE_MAX} rows={3} onChange={(e) => setNote(e.target.value)} data-testid="attention-note" />
      </label>
    </ConfirmDialog>
  );
}

export function PaymentAttention() {
  const [withClosed, setWithClosed] = useState(false);
  const status = withClosed ? 'all' : 'open';
  const loaded = usePages((page) => admin.paymentAttention(status, page.limit, page.offset), (i) => i.id, ATTENTION_PAGES, [status]);
  const [resolving, setResolving] = useState<PaymentAttentionItem | null>(null);
  const list = loaded.list;
  const items = list?.items ?? [];
  function resolved(item: PaymentAttentionItem) {
    setResolving(null);
    // Closed: gone from the open list, shown closed in the full one.
    if (withClosed) loaded.update(item.id, () => item);
    else loaded.remove(item.id);
  }
  return (
    <div className="admin-block" data-testid="maintenance-attention">
      <SectionHead title="Paiements à régler">
        <label className="check small">
          <input type="checkbox" checked={withClosed} onChange={(e) => setWithClosed(e.target.checked)} data-testid="attention-all" /> Afficher aussi les situations closes
        </label>
      </SectionHead>
      {list && items.length > 0 ? <p className="muted small" data-testid="attention-total">{shownOf(items.length, list.total ?? items.length, 'situation(s)')}</p> : null}
      {loaded.error ? <ErrorLine text={failure(loaded.error, MSG.loadFailed)} /> : null}
      {list && items.length === 0 ? <Empty text={withClosed ? 'Aucune situation enregistrée.' : 'Aucun paiement à régler.'} /> : null}
      {items.length > 0 ? (
        <TableBox>
          <table className="sheet-table admin-table">
            <thead>
              <tr>
                <th>Date</th>
                <th>Situation</th>
                <th>Moyen</th>
                <th>Référence chez le prestataire</th>
                <th>Paiement</th>
                <th>Utilisateur</th>
                <th>Montant</th>
                <th>État</th>
              </tr>
            </thead>
            <tbody>
              {items.map((i) => (
                <tr key={i.id} data-testid="attention-row" data-kind={i.kind}>
                  <td>{formatInstant(i.created_at)}</td>
                  <td title={i.message}>{i.label}</td>
                  <td>{i.provider}</td>
                  <td className="mono">{i.provider_reference}</td>
                  <td className="mono">{i.payment_reference ?? '—'}</td>
                  <td>{i.user_id ?? '—'}</td>
                  <td>{attentionAmount(i)}</td>
                  <td>
                    {i.resolved_at ? (
                      <span className="muted small" title={i.note ?? undefined}>{`Close le ${formatInstant(i.resolved_at)}${i.note ? ` : ${i.note}` : ''}`}</span>
                    ) : (
                      <button type="button" className="btn btn-small" onClick={() => setResolving(i)} aria-label={`Clore la situation ${i.id}`} data-testid="attention-resolve">
                        <Check size={14} aria-hidden="true" /> Clore
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableBox>
      ) : null}
      <MoreRows paging={loaded} sizes={ATTENTION_PAGES} testId="attention-more" />
      {resolving ? <ResolveDialog item={resolving} onClose={() => setResolving(null)} onResolved={resolved} /> : null}
    </div>
  );
}
