import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';

/** What the reader sees instead of a page that failed (docs/web.md "Shell"). */
export const PAGE_ERROR_MESSAGES = {
  title: 'Cette page n’a pas pu s’afficher.',
  hint: 'Vérifie ta connexion, puis recharge la page. Si le problème continue, écris-nous depuis la page Support.',
  reload: 'Recharger la page',
} as const;

interface BoundaryProps {
  children: ReactNode;
}

interface BoundaryState {
  failed: boolean;
}

/**
 * Catches what a page throws while it renders, and a page's code that cannot be loaded (a
 * network cut, or a new deployment whose files replaced the ones this tab was built against):
 * without it React unmounts the whole app and the reader is left with a blank page. The shell
 * (bar, footer) stays, with a French message and a reload button.
 */
class Boundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failed: false };

  static getDerivedStateFromError(): BoundaryState {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    // For whoever reads the console; the reader gets the message below.
    console.error('page failed', error, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="card page-error" role="alert" data-testid="page-error">
        <h1>{PAGE_ERROR_MESSAGES.title}</h1>
        <p className="muted">{PAGE_ERROR_MESSAGES.hint}</p>
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
          {PAGE_ERROR_MESSAGES.reload}
        </button>
      </div>
    );
  }
}

/** One boundary per page address: going to another page leaves the failure behind. */
export function PageErrorBoundary({ children }: BoundaryProps) {
  const { pathname } = useLocation();
  return <Boundary key={pathname}>{children}</Boundary>;
}
