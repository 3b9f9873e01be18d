/**
 * 'Mes stratégies' (docs/product.md §2.2): cards with Détails ('Commentaire stratégie'), Utiliser, and an
 * Options menu (Renommer / Valider le renommage, Éditer la note, Télécharger, Supprimer); the
 * import modal 'Importer une stratégie (.py)' reuses the backtest screen's import panel.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { Modal } from '../../components/Modal.js';
import { calls } from '../../runtime.js';
import { ImportPanel } from '../backtest/ImportPanel.js';
import { saveBlob } from '../../lib/saveBlob.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { DASHBOARD_MESSAGES, STRATEGY_SORTS, frenchDate, renameTarget, sortStrategies, type StrategySort } from './items.js';
import { useGeneratorProvider } from '../../features/generator/useGeneratorProvider.js';
import { parseStrategyCards, slModeLabel, sourceLabel, type StrategyCardData } from './strategies.js';

type Load = { status: 'loading' } | { status: 'error' } | { status: 'ready'; items: StrategyCardData[] };

function StrategyCard({
  strategy,
  onChange,
  onRemove,
  onError,
}: {
  strategy: StrategyCardData;
  onChange: (next: StrategyCardData) => void;
  onRemove: () => void;
  onError: (message: string | null) => void;
}) {
  const provider = useGeneratorProvider();
  const [menu, setMenu] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const [draft, setDraft] = useState(strategy.name);
  const [details, setDetails] = useState(false);
  const [noteOpen, setNoteOpen] = useState(false);
  const [noteDraft, setNoteDraft] = useState(strategy.note);
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement | null>(null);
  const options = useRef<HTMLDivElement | null>(null);
  const optionsButton = useRef<HTMLButtonElement | null>(null);
  /**
   * Closes the menu with the focus back on its button: the item that had it disappears with the
   * menu, and a dialog opened from it gives the focus back to what had it when it opened.
   */
  const closeMenu = () => {
    if (options.current?.contains(document.activeElement)) optionsButton.current?.focus();
    setMenu(false);
  };

  useEffect(() => {
    if (renaming) input.current?.focus();
  }, [renaming]);

  // The Options menu closes on a click elsewhere or Escape, as menus do.
  useEffect(() => {
    if (!menu) return;
    const onDown = (event: MouseEvent) => {
      if (!options.current?.contains(event.target as Node)) setMenu(false);
    };
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && closeMenu();
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [menu]);

  function startRename() {
    setDraft(strategy.name);
    setRenaming(true);
    setMenu(false);
  }

  async function validateRename() {
    const name = renameTarget(strategy.name, draft);
    setRenaming(false);
    setMenu(false);
    if (name === null) return;
    try {
      const answer = await calls.renameStrategy(strategy.id, name);
      onChange({ ...strategy, name: answer?.strategy?.display_name ?? name, fileName: answer?.strategy?.display_filename ?? strategy.fileName });
      onError(null);
    } catch {
      onError(DASHBOARD_MESSAGES.renameFailed);
    }
  }

  async function saveNote() {
    setBusy(true);
    try {
      const answer = await calls.strategyNote(strategy.id, noteDraft.trim());
      const saved = answer?.meta && typeof answer.meta.comment_user === 'string' ? answer.meta.comment_user : noteDraft.trim();
      onChange({ ...strategy, note: saved, comment: saved || strategy.description });
      setNoteOpen(false);
      onError(null);
    } catch {
      onError(DASHBOARD_MESSAGES.noteFailed);
    } finally {
      setBusy(false);
    }
  }

  async function download() {
    closeMenu();
    try {
      saveBlob(await calls.downloadStrategy(strategy.id), strategy.fileName);
      onError(null);
    } catch {
      onError(DASHBOARD_MESSAGES.downloadFailed);
    }
  }

  async function remove() {
    setBusy(true);
    try {
      await calls.deleteStrategy(strategy.id);
      setConfirm(false);
      onError(null);
      onRemove();
    } catch {
      setConfirm(false);
      onError(DASHBOARD_MESSAGES.deleteFailed);
    } finally {
      setBusy(false);
    }
  }

  return (
    <article className="card dash-card strategy-item" data-testid="strategy-card" data-strategy-id={strategy.id}>
      <div className="dash-card-head">
        {renaming ? (
          <form
            className="rename-form"
            onSubmit={(event) => {
              event.preventDefault();
              void validateRename();
            }}
          >
            <input
              ref={input}
              value={draft}
              aria-label="Nouveau nom"
              maxLength={120}
              onChange={(event) => setDraft(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Escape') {
                  event.stopPropagation();
                  setRenaming(false);
                }
              }}
              data-testid="rename-input"
            />
            <button type="submit" className="btn btn-small btn-primary">
              Valider le renommage
            </button>
          </form>
        ) : (
          <h3 className="dash-card-title" data-testid="strategy-name">
            {strategy.name}
          </h3>
        )}
        <div className="options" ref={options}>
          <button type="button" ref={optionsButton} className="btn btn-small btn-ghost" aria-haspopup="menu" aria-expanded={menu} onClick={() => setMenu(!menu)}>
            Options
          </button>
          {menu ? (
            <div className="options-menu" role="menu">
              <button type="button" role="menuitem" onClick={() => (renaming ? void validateRename() : startRename())}>
                {renaming ? 'Valider le renommage' : 'Renommer'}
              </button>
              <button
                type="button"
                role="menuitem"
                onClick={() => {
                  closeMenu();
                  setNoteDraft(strategy.note);
                  setNoteOpen(true);
                }}
              >
                Éditer la note
              </button>
              <button type="button" role="menuitem" onClick={() => void download()}>
                Télécharger
              </button>
              <button
                type="button"
                role="menuitem"
                className="danger"
                onClick={() => {
                  closeMenu();
                  setConfirm(true);
                }}
              >
                Supprimer
              </button>
            </div>
          ) : null}
        </div>
      </div>
      <div className="dash-badges">
        <span className="badge">{sourceLabel(strategy.source, provider)}</span>
        {slModeLabel(strategy.slMode) ? <span className="badge">{slModeLabel(strategy.slMode)}</span> : null}
        {strategy.createdAt ? <span className="muted small">{frenchDate(strategy.createdAt)}</span> : null}
      </div>
      <p className="muted small clamp" data-testid="strategy-note">
        {strategy.note || strategy.description || '—'}
      </p>
      <div className="row-actions">
        <button type="button" className="btn btn-small" onClick={() => setDetails(true)}>
          Détails
        </button>
        <Link className="btn btn-small btn-primary" to={`/backtest?strategy=${encodeURIComponent(strategy.id)}`}>
          Utiliser
        </Link>
      </div>
      {details ? (
        <Modal title="Commentaire stratégie" onClose={() => setDetails(false)}>
          <h3 className="modal-subtitle user-text">{strategy.name}</h3>
          <p className="mono small muted user-text">{strategy.fileName}</p>
          {strategy.description ? <p className="prewrap">{strategy.description}</p> : null}
          <h4>Ta note</h4>
          <p className="prewrap">{strategy.note || <span className="muted">Aucune note.</span>}</p>
        </Modal>
      ) : null}
      {noteOpen ? (
        <Modal
          title="Éditer la note"
          onClose={() => setNoteOpen(false)}
          footer={
            <button type="button" className="btn btn-primary" onClick={() => void saveNote()} disabled={busy} data-testid="save-note">
              Enregistrer
            </button>
          }
        >
          <label className="stack">
            Note ({strategy.name})
            <textarea rows={5} maxLength={2000} value={noteDraft} onChange={(event) => setNoteDraft(event.target.value)} data-testid="note-input" />
          </label>
        </Modal>
      ) : null}
      {confirm ? (
        <ConfirmDialog
          title="Supprimer cette stratégie ?"
          text="Cette action est irréversible."
          confirmLabel="Supprimer"
          danger
          busy={busy}
          onConfirm={() => void remove()}
          onClose={() => setConfirm(false)}
        />
      ) : null}
    </article>
  );
}

export function StrategiesSection() {
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [sort, setSort] = useState<StrategySort>('recent');
  const [importing, setImporting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      setLoad({ status: 'ready', items: parseStrategyCards(await calls.userStrategies()) });
    } catch {
      setLoad({ status: 'error' });
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  const items = load.status === 'ready' ? sortStrategies(load.items, sort) : [];
  const update = (next: StrategyCardData) => setLoad((current) => (current.status === 'ready' ? { status: 'ready', items: current.items.map((s) => (s.id === next.id ? next : s)) } : current));
  const remove = (id: string) => setLoad((current) => (current.status === 'ready' ? { status: 'ready', items: current.items.filter((s) => s.id !== id) } : current));

  return (
    <section className="dash-section" data-testid="strategies-section">
      <div className="dash-section-head">
        <h2>Mes stratégies</h2>
        <div className="row-actions">
          <label className="inline-select">
            Tri{' '}
            <select value={sort} onChange={(event) => setSort(event.target.value as StrategySort)} data-testid="strategies-sort">
              {STRATEGY_SORTS.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.label}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="btn btn-small btn-primary" onClick={() => setImporting(true)} data-testid="open-import">
            Importer une stratégie (.py)
          </button>
        </div>
      </div>
      {error ? (
        <p className="alert alert-error" role="alert" data-testid="strategies-error">
          {error}
        </p>
      ) : null}
      {load.status === 'loading' ? <p className="muted">Chargement…</p> : null}
      {load.status === 'error' ? <p className="alert alert-error">{DASHBOARD_MESSAGES.loadError}</p> : null}
      {load.status === 'ready' && items.length === 0 ? (
        <p className="empty-state" data-testid="strategies-empty">
          {DASHBOARD_MESSAGES.noStrategies}
        </p>
      ) : null}
      {items.length > 0 ? (
        <div className="card-grid">
          {items.map((strategy) => (
            <StrategyCard key={strategy.id} strategy={strategy} onChange={update} onRemove={() => remove(strategy.id)} onError={setError} />
          ))}
        </div>
      ) : null}
      {importing ? (
        <Modal title="Importer une stratégie (.py)" onClose={() => setImporting(false)}>
          <ImportPanel
            heading={false}
            loggedIn
            onNeedLogin={() => setImporting(false)}
            onImported={async () => {
              setImporting(false);
              await reload();
            }}
          />
        </Modal>
      ) : null}
    </section>
  );
}
