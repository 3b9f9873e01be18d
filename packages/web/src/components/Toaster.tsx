import { useSyncExternalStore } from 'react';
import { CircleAlert, CircleCheck, Info, X } from 'lucide-react';
import { toasts } from '../runtime.js';
import type { ToastKind } from './toasts.js';

const ICONS: Record<ToastKind, typeof Info> = { success: CircleCheck, info: Info, error: CircleAlert };

/** Where toasts appear (bottom right; bottom and full width on phones), read by screen readers. */
export function Toaster() {
  const list = useSyncExternalStore(toasts.subscribe, toasts.getSnapshot, toasts.getSnapshot);
  return (
    <div className="toaster" role="status" aria-live="polite">
      {list.map((toast) => {
        const Icon = ICONS[toast.kind];
        return (
          <div key={toast.id} className={`toast toast-${toast.kind}`} data-testid="toast">
            <Icon size={18} aria-hidden="true" />
            <span className="toast-text">{toast.text}</span>
            <button type="button" className="toast-close" aria-label="Fermer" onClick={() => toasts.dismiss(toast.id)}>
              <X size={16} aria-hidden="true" />
            </button>
          </div>
        );
      })}
    </div>
  );
}
