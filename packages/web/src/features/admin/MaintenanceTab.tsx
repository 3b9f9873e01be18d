/**
 * Maintenance: the payments to settle, reindex of the output datasets, e-mail re-creation
 * counters, billing files and the import of output data (docs/admin.md "Maintenance", "Payments
 * to settle").
 */
import { useState } from 'react';
import { Download, RefreshCw, RotateCcw, Trash2 } from 'lucide-react';
import type { InvoiceFile } from '../../api/admin.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { admin, notify, save } from './client.js';
import { formatCount, formatInstant, formatSize } from './format.js';
import { ImportPanel } from './ImportPanel.js';
import { PaymentAttention } from './PaymentAttention.js';
import { failure, MSG } from './messages.js';
import { Empty, ErrorLine, Loading, MoreRows, SectionHead, TableBox } from './ui.js';
import { useLoad } from './useLoad.js';
import { shownOf } from './pages.js';
import { INVOICE_PAGES, RECREATE_PAGES } from './rules.js';
import { usePages } from '../paging/usePages.js';

function Reindex() {
  const [busy, setBusy] = useState(false);
  const [line, setLine] = useState<{ ok: boolean; text: string } | null>(null);
  async function run() {
    setBusy(true);
    setLine(null);
    try {
      const answer = await admin.reindex();
      const r = answer.result;
      if (!r || typeof r.files !== 'number') throw new Error(MSG.invalidAnswer);
      const summary = `${formatCount(r.datasets)} jeu(x) de données, ${formatCount(r.files)} fichier(s)`;
      if (answer.status === 'success' && r.ok) setLine({ ok: true, text: `Indexation terminée : ${summary}.` });
      else setLine({ ok: false, text: `${MSG.reindexPartial} : ${summary}, ${formatCount(r.errors?.length ?? 0)} erreur(s).${r.errors?.length ? ` ${r.errors.map((e) => `${e.path} : ${e.detail}`).join(' ; ')}` : ''}` });
    } catch (error) {
      setLine({ ok: false, text: `${MSG.reindexFailed}${failure(error, '') ? ` : ${failure(error, '')}` : ''}` });
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="admin-block" data-testid="maintenance-reindex">
      <SectionHead title="Réindexation des CSV">
        <button type="button" className="btn btn-small" disabled={busy} onClick={() => void run()} data-testid="reindex">
          <RefreshCw size={14} aria-hidden="true" /> Réindexer
        </button>
      </SectionHead>
      {busy ? <Loading /> : null}
      {line ? (
        <p className={line.ok ? 'ok-text' : 'error-text'} role="status" data-testid="reindex-result">
          {line.text}
        </p>
      ) : null}
    </div>
  );
}

function Recreations() {
  // A reset bumps the epoch: the list starts again from its first page.
  const [epoch, setEpoch] = useState(0);
  const loaded = usePages((page) => admin.recreateCounts(page.limit, page.offset).then((a) => ({ items: a?.counts, total: a?.total })), (c) => c.email, RECREATE_PAGES, [epoch]);
  const [confirm, setConfirm] = useState<{ email?: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const list = loaded.list;
  const counts = list?.items ?? [];
  async function reset() {
    if (!confirm) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await admin.resetRecreate(confirm.email);
      notify(`Compteur(s) remis à zéro : ${formatCount(answer.removed)} (reste ${formatCount(answer.left)}).`);
      setConfirm(null);
      setEpoch((e) => e + 1);
    } catch (e) {
      setError(failure(e, confirm.email ? MSG.targetedDeleteFailed : MSG.globalResetFailed));
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="admin-block" data-testid="maintenance-recreate">
      <SectionHead title="Recréations de compte par e-mail">
        <button type="button" className="btn btn-small btn-danger" disabled={counts.length === 0} onClick={() => { setError(null); setConfirm({}); }} data-testid="recreate-reset-all">
          <RotateCcw size={14} aria-hidden="true" /> Tout remettre à zéro
        </button>
      </SectionHead>
      {list && counts.length > 0 ? <p className="muted small" data-testid="recreate-total">{shownOf(counts.length, list.total ?? counts.length, 'adresse(s)')}</p> : null}
      {loaded.error ? <ErrorLine text={failure(loaded.error, MSG.loadFailed)} /> : null}
      {list && counts.length === 0 ? <Empty text={MSG.noEntry} /> : null}
      {counts.length > 0 ? (
        <TableBox>
          <table className="sheet-table admin-table">
            <thead>
              <tr>
                <th>E-mail</th>
                <th>Suppressions</th>
                <th>Recréations</th>
                <th>Bloqué</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {counts.map((c) => (
                <tr key={c.email} data-testid="recreate-row">
                  <td>{c.email}</td>
                  <td>{formatCount(c.deletions)}</td>
                  <td>{formatCount(c.recreations)}</td>
                  <td>{c.blocked ? 'Oui' : 'Non'}</td>
                  <td>
                    <button type="button" className="btn btn-small" onClick={() => { setError(null); setConfirm({ email: c.email }); }} aria-label={`Remettre à zéro ${c.email}`} data-testid="recreate-reset-one">
                      <RotateCcw size={14} aria-hidden="true" />
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableBox>
      ) : null}
      <MoreRows paging={loaded} sizes={RECREATE_PAGES} testId="recreate-more" />
      {confirm ? (
        <ConfirmDialog
          title="Remettre à zéro ?"
          text={confirm.email ? `Le compteur de ${confirm.email} sera supprimé.` : 'Tous les compteurs de recréation seront supprimés.'}
          confirmLabel="Remettre à zéro"
          danger
          busy={busy}
          error={error}
          onConfirm={() => void reset()}
          onClose={() => setConfirm(null)}
        />
      ) : null}
    </div>
  );
}

function Invoices() {
  const info = useLoad(() => admin.invoicesInfo(), []);
  const list = usePages((page) => admin.invoicesList(page.limit, page.offset).then((a) => ({ items: a?.items, total: a?.total ?? null })), (f) => f.rel, INVOICE_PAGES, []);
  const [deleting, setDeleting] = useState<InvoiceFile | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const items = list.list?.items ?? [];
  async function download(file: InvoiceFile) {
    setError(null);
    try {
      save(await admin.invoiceDownload(file.rel, file.name));
    } catch (e) {
      setError(`${MSG.fileDownload} ${failure(e, '')}`.trim());
    }
  }
  async function remove() {
    if (!deleting) return;
    setBusy(true);
    setConfirmError(null);
    try {
      const answer = await admin.invoiceDelete(deleting.rel);
      notify(answer.detail ?? 'Fichier supprimé.');
      setDeleting(null);
      info.reload();
      list.remove(deleting.rel);
    } catch (e) {
      setConfirmError(`${MSG.fileDelete} ${failure(e, '')}`.trim());
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="admin-block" data-testid="maintenance-invoices">
      <SectionHead title="Factures (fichiers)">
        <span className="muted small" data-testid="invoices-info">{info.data ? `${formatCount(info.data.count)} fichier(s), ${formatSize(info.data.bytes)}` : ''}</span>
      </SectionHead>
      <ErrorLine text={error} />
      {list.list && items.length > 0 ? <p className="muted small" data-testid="invoices-total">{shownOf(items.length, list.list.total ?? info.data?.count ?? items.length, 'fichier(s)')}</p> : null}
      {list.error ? <ErrorLine text={failure(list.error, MSG.loadFailed)} /> : null}
      {list.list && items.length === 0 ? <Empty text={MSG.noFile} /> : null}
      {items.length > 0 ? (
        <TableBox>
          <table className="sheet-table admin-table">
            <thead>
              <tr>
                <th>Fichier</th>
                <th>Taille</th>
                <th>Modifié le</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {items.map((f) => (
                <tr key={f.rel} data-testid="invoice-row" data-rel={f.rel}>
                  <td className="mono">{f.rel}</td>
                  <td>{formatSize(f.bytes)}</td>
                  <td>{formatInstant(f.mtime)}</td>
                  <td>
                    <div className="admin-row-actions">
                      <button type="button" className="btn btn-small" onClick={() => void download(f)} aria-label={`Télécharger ${f.name}`} data-testid="invoice-download">
                        <Download size={14} aria-hidden="true" />
                      </button>
                      <button type="button" className="btn btn-small btn-danger" onClick={() => { setConfirmError(null); setDeleting(f); }} aria-label={`Supprimer ${f.name}`} data-testid="invoice-delete">
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
      <MoreRows paging={list} sizes={INVOICE_PAGES} testId="invoices-more" />
      {deleting ? (
        <ConfirmDialog
          title="Supprimer ce fichier ?"
          text={`${deleting.rel} sera supprimé ; la facture reste enregistrée et son PDF sera redessiné au prochain téléchargement.`}
          confirmLabel="Supprimer"
          danger
          busy={busy}
          error={confirmError}
          onConfirm={() => void remove()}
          onClose={() => setDeleting(null)}
        />
      ) : null}
    </div>
  );
}

export function MaintenanceTab() {
  return (
    <section className="admin-tab" data-testid="admin-maintenance">
      <PaymentAttention />
      <Reindex />
      <Recreations />
      <Invoices />
      <ImportPanel />
    </section>
  );
}
