/** A details answer (KPI details, ledger, drill-down) as a table, its columns in French. */
import type { DetailsAnswer } from '../../api/admin.js';
import { formatCell } from './format.js';
import { MSG } from './messages.js';
import { shownOf } from './pages.js';
import { Empty, TableBox } from './ui.js';

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
