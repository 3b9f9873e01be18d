/** A details answer (KPI details, ledger, drill-down) as a table, its columns in French. */
import { useRef, type DependencyList } from 'react';
import type { DetailsAnswer } from '../../api/admin.js';
import { usePages } from '../paging/usePages.js';
import { formatCell } from './format.js';
import { failure, MSG } from './messages.js';
import { shownOf, type PageSizes } from './pages.js';
import { Empty, ErrorLine, Loading, MoreRows, TableBox } from './ui.js';

const COLUMN_LABELS: Record<string, string> = {
  date: 'Date',
  user: 'Utilisateur',
  user_id: 'N° utilisateur',
  label: 'Libellé',
  method: 'Moyen',
  amount_eur: 'Montant',
  credits: 'Crédits',
  symbol: 'Symbole',
  timeframe: 'UT',
  strategy: 'Stratégie',
  period: 'Période',
  duration_ms: 'Durée',
  email: 'E-mail',
  username: 'Nom d’utilisateur',
  plan: 'Offre',
  last_seen: 'Vu le',
  deleted: 'Supprimé',
  event: 'Événement',
  by: 'Par',
  kind: 'Type d’échec',
};

export function columnsOf(answer: DetailsAnswer): string[] {
  if (answer.columns && answer.columns.length) return answer.columns;
  const first = answer.rows[0];
  return first ? Object.keys(first) : [];
}

export function DetailsTable({ answer, testId }: { answer: DetailsAnswer; testId?: string }) {
  if (answer.rows.length === 0) return <Empty text={MSG.empty} />;
  const columns = columnsOf(answer);
  return (
    <TableBox testId={testId}>
      <table className="sheet-table admin-table">
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c}>{COLUMN_LABELS[c] ?? c}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {answer.rows.map((row, i) => (
            <tr key={i} data-testid="details-row">
              {columns.map((c) => (
                <td key={c}>{formatCell(c, row[c])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {answer.total > answer.rows.length ? <p className="muted small">{shownOf(answer.rows.length, answer.total, 'ligne(s)')}</p> : null}
    </TableBox>
  );
}

/** A details row with its place in the whole list (rows have no id of their own). */
interface PlacedRow {
  at: number;
  row: Record<string, unknown>;
}

/**
 * The details of a KPI, the ledger, a heatmap cell: a page, then 'Afficher N de plus' up to the
 * server's `total` (decided here, docs/web.md: the first 100 were all a range of thousands showed).
 */
export function PagedDetails({ load, deps, sizes, testId }: { load: (limit: number, offset: number) => Promise<DetailsAnswer>; deps: DependencyList; sizes: PageSizes; testId: string }) {
  // The server's column order, from its answers (the rows' keys otherwise).
  const columns = useRef<string[]>([]);
  const loaded = usePages<PlacedRow>(
    (page) =>
      load(page.limit, page.offset).then((answer) => {
        if (answer.columns?.length) columns.current = answer.columns;
        return { items: answer.rows.map((row, k) => ({ at: page.offset + k, row })), total: answer.total };
      }),
    (placed) => placed.at,
    sizes,
    deps,
  );
  const list = loaded.list;
  const rows = list?.items.map((p) => p.row) ?? [];
  return (
    <>
      {loaded.loading && !list ? <Loading /> : null}
      {loaded.error ? <ErrorLine text={failure(loaded.error, MSG.detailsLoad)} /> : null}
      {list ? <DetailsTable answer={{ kpi: '', columns: columns.current.length ? columns.current : undefined, rows, total: list.total ?? rows.length, limit: rows.length, offset: 0 }} testId={testId} /> : null}
      <MoreRows paging={loaded} sizes={sizes} testId={`${testId}-more`} />
    </>
  );
}
