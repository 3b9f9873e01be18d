import { useEffect, useId, useRef, type ReactNode } from 'react';
import { X } from 'lucide-react';
import { createPortal } from 'react-dom';

interface ModalProps {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
  footer?: ReactNode;
  className?: string;
}

/** What Tab may reach inside a dialog. */
const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The dialogs open, the last one on top: only it answers Escape and keeps Tab (a confirmation over an overlay). */
const openPanels: HTMLElement[] = [];

/**
 * Keeps Tab inside the dialog: from its last control back to its first, and the reverse with
 * Shift. Without it, Tab walked on into the page behind the backdrop, out of sight.
 */
function keepFocusInside(event: KeyboardEvent, panel: HTMLElement) {
  // A control taken out of the Tab order (tabindex -1: the inactive tabs of a tab list) is not an end.
  const controls = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.tabIndex >= 0 && el.getClientRects().length > 0);
  if (controls.length === 0) {
    event.preventDefault();
    panel.focus();
    return;
  }
  const first = controls[0];
  const last = controls[controls.length - 1];
  const active = document.activeElement;
  const inside = active instanceof Node && panel.contains(active) && active !== panel;
  if (event.shiftKey && (!inside || active === first)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (!inside || active === last)) {
    event.preventDefault();
    first.focus();
  }
}

/** Dialog on a portal: Escape and the backdrop close it, focus moves in, stays in, and goes back out. */
export function Modal({ title, onClose, children, wide, footer, className }: ModalProps) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement | null>(null);
  // Callers pass inline closures: the effect below must run once per opening, not on every
  // render, else each keystroke in a field of the dialog would move focus back to the panel.
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const own = panel.current;
    own?.focus();
    if (own) openPanels.push(own);
    const onKey = (event: KeyboardEvent) => {
      if (!own || openPanels[openPanels.length - 1] !== own) return;
      if (event.key === 'Escape') close.current();
      else if (event.key === 'Tab') keepFocusInside(event, own);
    };
    document.addEventListener('keydown', onKey);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      const at = own ? openPanels.lastIndexOf(own) : -1;
      if (at >= 0) openPanels.splice(at, 1);
      document.removeEventListener('keydown', onKey);
      document.body.style.overflow = overflow;
      previous?.focus?.();
    };
  }, []);

  return createPortal(
    <div className="modal-backdrop" onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div
        ref={panel}
        className={`modal${wide ? ' modal-wide' : ''}${className ? ` ${className}` : ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
      >
        <div className="modal-header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="modal-close" aria-label="Fermer" title="Fermer" onClick={onClose}>
            <X size={22} aria-hidden="true" />
          </button>
        </div>
        <div className="modal-body">{children}</div>
        {footer ? <div className="modal-footer">{footer}</div> : null}
      </div>
    </div>,
    document.body,
  );
}
