import type { ReactNode } from 'react';
import { Modal } from './Modal.js';

/**
 * A yes/no dialog: the dashboard's deletions (docs/product.md §2.2: 'Supprimer ce backtest ?' / 'Cette
 * action est irréversible.') and the profile's quick actions, with the action's error below;
 * `children` go between the text and the error (a note to type, a detail to show).
 */
export function ConfirmDialog({
  title,
  text,
  confirmLabel,
  danger,
  busy,
  error,
  onConfirm,
  onClose,
  confirmTestId = 'confirm-action',
  children,
}: {
  title: string;
  text: string;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onClose: () => void;
  confirmTestId?: string;
  children?: ReactNode;
}) {
  return (
    <Modal
      title={title}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Annuler
          </button>
          <button type="button" className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`} onClick={onConfirm} disabled={busy} data-testid={confirmTestId}>
            {confirmLabel}
          </button>
        </>
      }
    >
      <p className="user-text">{text}</p>
      {children}
      {error ? (
        <p className="error-text small" role="alert">
          {error}
        </p>
      ) : null}
    </Modal>
  );
}
