/**
 * Utilisateurs: search and sort (both the server's), page by page, ±1 credit, delete with
 * confirmation, the user's history (docs/admin.md).
 */
import { useEffect, useState } from 'react';
import { History, Minus, Plus, Search, Trash2 } from 'lucide-react';
import type { AdminUser } from '../../api/admin.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { admin, notify } from './client.js';
import { formatCount, formatInstant } from './format.js';
import { failure, MSG } from './messages.js';
import { UserHistoryModal } from './UserHistoryModal.js';
import { Clamped, Empty, ErrorLine, Loading, MoreRows, SectionHead, TableBox } from './ui.js';
import { shownOf } from './pages.js';
import { USER_PAGES, USER_SORTS as SORTS, reservedNameBadge, type UserSort } from './rules.js';
import { usePages } from '../paging/usePages.js';

export function UsersTab() {
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [sort, setSort] = useState<UserSort>('newest');
  const [busy, setBusy] = useState<number | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<AdminUser | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [historyOf, setHistoryOf] = useState<AdminUser | null>(null);
  // A deletion bumps the epoch: the list starts again from its first page, as a new search or sort does.
  const [epoch, setEpoch] = useState(0);
  const loaded = usePages((page) => admin.users({ q, sort, ...page }).then((a) => ({ items: a?.users, total: a?.total })), (user) => user.id, USER_PAGES, [q, sort, epoch]);
  const list = loaded.list;
  const users = list?.items ?? [];

  // Typing searches after a short pause (the server searches e-mail and username).
  useEffect(() => {
    const timer = window.setTimeout(() => setQ(typed.trim()), 250);
    return () => window.clearTimeout(timer);
  }, [typed]);

  async function credit(user: AdminUser, delta: 1 | -1) {
    setBusy(user.id);
    setActionError(null);
    try {
      const answer = delta > 0 ? await admin.addCredit(user.id, 1) : await admin.removeCredit(user.id, 1);
      if (typeof answer.credits !== 'number') throw new Error(MSG.invalidAnswer);
      const credits = answer.credits;
      loaded.update(user.id, (row) => ({ ...row, credits }));
      notify(answer.detail ?? `${delta > 0 ? '+1' : '-1'} crédit`);
    } catch (error) {
      setActionError(failure(error, error instanceof Error && error.message === MSG.invalidAnswer ? MSG.invalidAnswer : MSG.connection));
    } finally {
      setBusy(null);
    }
  }

  async function confirmDelete() {
    if (!deleting) return;
    setBusy(deleting.id);
    setDeleteError(null);
    try {
      const answer = await admin.deleteUser(deleting.id);
      notify(answer.detail ?? 'Utilisateur supprimé.');
      setDeleting(null);
      setEpoch((e) => e + 1);
    } catch (error) {
      setDeleteError(failure(error, MSG.targetedDeleteFailed));
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="admin-tab" data-testid="admin-users">
      <SectionHead title="Utilisateurs">
        <span className="muted small" data-testid="users-count">{list ? shownOf(users.length, list.total ?? users.length, 'compte(s)') : ''}</span>
      </SectionHead>
      <div className="admin-toolbar">
        <label className="admin-search">
          <span className="sr-only">Rechercher</span>
          <Search size={16} aria-hidden="true" />
          <input type="search" placeholder="Rechercher (e-mail, nom d’utilisateur)" value={typed} onChange={(e) => setTyped(e.target.value)} data-testid="users-search" />
        </label>
        <label className="admin-inline">
          Trier par
          <select value={sort} onChange={(e) => setSort(e.target.value as UserSort)} data-testid="users-sort">
            {SORTS.map((s) => (
              <option key={s.key} value={s.key}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorLine text={actionError} />
      {loaded.error ? <ErrorLine text={failure(loaded.error, MSG.usersLoad)} /> : null}
      {loaded.loading && !list ? <Loading /> : null}
      {list && users.length === 0 ? <Empty /> : null}
      {users.length > 0 ? (
        <TableBox testId="users-table">
          <table className="sheet-table admin-table">
            <thead>
              <tr>
                <th>#</th>
                <th>E-mail</th>
                <th>Nom d’utilisateur</th>
                <th>Offre</th>
                <th>Crédits</th>
                <th>Bloqué</th>
                <th>Vu le</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.id} data-testid="user-row" data-user-id={u.id}>
                  <td>{u.id}</td>
                  <td>
                    <Clamped text={u.email} />
                  </td>
                  <td>
                    <Clamped text={u.username} />
                    <ReservedName user={u} />
                  </td>
                  <td>{u.plan}</td>
                  <td data-testid="user-credits">{formatCount(u.credits)}</td>
                  <td>{u.is_blocked ? <span className="badge admin-blocked">Bloqué</span> : <span className="muted">Non</span>}</td>
                  <td>{formatInstant(u.last_seen)}</td>
                  <td>
                    <div className="admin-row-actions">
                      <button type="button" className="btn btn-small" title="Ajouter 1 crédit" aria-label={`Ajouter 1 crédit à ${u.email}`} disabled={busy === u.id} onClick={() => void credit(u, 1)} data-testid="user-add-credit">
                        <Plus size={14} aria-hidden="true" />1
                      </button>
                      <button type="button" className="btn btn-small" title="Retirer 1 crédit" aria-label={`Retirer 1 crédit à ${u.email}`} disabled={busy === u.id} onClick={() => void credit(u, -1)} data-testid="user-remove-credit">
                        <Minus size={14} aria-hidden="true" />1
                      </button>
                      <button type="button" className="btn btn-small" title="Historique" aria-label={`Historique de ${u.email}`} onClick={() => setHistoryOf(u)} data-testid="user-history">
                        <History size={14} aria-hidden="true" />
                      </button>
                      <button type="button" className="btn btn-small btn-danger" title="Supprimer" aria-label={`Supprimer ${u.email}`} disabled={busy === u.id || u.role === 'admin'} onClick={() => { setDeleteError(null); setDeleting(u); }} data-testid="user-delete">
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
      <MoreRows paging={loaded} sizes={USER_PAGES} testId="users-more" />
      {deleting ? (
        <ConfirmDialog
          title="Supprimer cet utilisateur ?"
          text={`Le compte ${deleting.email} sera archivé et ses sessions révoquées. Cette action est irréversible.`}
          confirmLabel="Supprimer"
          danger
          busy={busy === deleting.id}
          error={deleteError}
          onConfirm={() => void confirmDelete()}
          onClose={() => setDeleting(null)}
        />
      ) : null}
      {historyOf ? <UserHistoryModal user={historyOf} onClose={() => setHistoryOf(null)} /> : null}
    </section>
  );
}

/** 'Nom réservé' beside a user's name that reads like the team's (rules.ts, reservedNameBadge). */
function ReservedName({ user }: { user: AdminUser }) {
  const badge = reservedNameBadge(user);
  if (!badge) return null;
  return (
    <>
      {' '}
      <span className="badge" title={badge.title} data-testid="user-reserved-name">
        {badge.text}
      </span>
    </>
  );
}
