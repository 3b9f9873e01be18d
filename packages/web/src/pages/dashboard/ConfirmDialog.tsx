import { Modal } from '../../components/Modal.js';

/** A yes/no dialog (spec 2 §2: 'Supprimer ce backtest ?' / 'Cette action est irréversible.'). */
export function ConfirmDialog({ title, message, confirmLabel, busy, onConfirm, onCancel }: { title: string; message: string; confirmLabel: string; busy?: boolean; onConfirm: () => void; onCancel: () => void }) {
  return (
    <Modal
      title={title}
      onClose={onCancel}
      className="confirm-dialog"
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onCancel}>
            Annuler
          </button>
          <button type="button" className="btn btn-danger" onClick={onConfirm} disabled={busy} data-testid="confirm-yes">
            {confirmLabel}
          </button>
        </>
      }
    >
      <p>{message}</p>
    </Modal>
  );
}
