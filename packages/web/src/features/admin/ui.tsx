/** Small pieces every tab uses: the error line, the empty state, the scrolling table box, KPI cards. */
import type { ReactNode } from 'react';
import type { PagedLoad } from '../paging/usePages.js';
import { MSG } from './messages.js';
import { nextCount, type PageSizes } from './pages.js';

export function ErrorLine({ text }: { text: string | null | undefined }) {
  if (!text) return null;
  return (
    <p className="alert alert-error admin-error" role="alert">
      {text}
    </p>
  );
}

export function Empty({ text = MSG.empty }: { text?: string }) {
  return (
    <p className="empty-state" data-testid="admin-empty">
      {text}
    </p>
  );
}

export function Loading() {
  return (
    <p className="muted admin-loading" role="status">
      <span className="spinner" aria-hidden="true" /> Chargement…
    </p>
  );
}

/** Wide tables scroll inside this box, never the page (375 px phones). */
export function TableBox({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <div className="admin-table-box" data-testid={testId}>
      {children}
    </div>
  );
}

/**
 * A name the user chose (address, username, strategy name: up to 191 characters without a space),
 * cut to a column's width with an ellipsis; the whole name in its title (docs/web.md "Long names").
 */
export function Clamped({ text }: { text: string | null | undefined }) {
  if (!text) return <>—</>;
  return (
    <span className="cell-clamp" title={text}>
      {text}
    </span>
  );
}

export function Kpi({ label, value, onClick, testId }: { label: string; value: string; onClick?: () => void; testId?: string }) {
  const body = (
    <>
      <span className="label">{label}</span>
      <strong className="admin-kpi-value">{value}</strong>
    </>
  );
  return onClick ? (
    <button type="button" className="admin-kpi" onClick={onClick} data-testid={testId}>
      {body}
    </button>
  ) : (
    <div className="admin-kpi" data-testid={testId}>
      {body}
    </div>
  );
}

export function SectionHead({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="admin-section-head">
      <h2>{title}</h2>
      {children ? <div className="row-actions">{children}</div> : null}
    </div>
  );
}

/** "Afficher N de plus" under a paged list (features/paging), shown while a next page exists. */
export function MoreRows({ paging, sizes, testId }: { paging: Pick<PagedLoad<unknown>, 'list' | 'more' | 'loading' | 'loadMore'>; sizes: PageSizes; testId: string }) {
  if (!paging.list || !paging.more) return null;
  return (
    <button type="button" className="btn btn-small admin-more" onClick={paging.loadMore} disabled={paging.loading} data-testid={testId}>
      {`Afficher ${nextCount(paging.list, sizes)} de plus`}
    </button>
  );
}
