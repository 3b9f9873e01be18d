/** A history table (a user's, or the global one with its user column). */
import type { HistoryLine } from '../../api/admin.js';
import { formatDelta, formatEur, formatInstant } from './format.js';
import { Clamped, TableBox } from './ui.js';

export function HistoryTable({ lines, withUser, testId }: { lines: readonly HistoryLine[]; withUser?: boolean; testId?: string }) {
  return (
    <TableBox testId={testId}>
      <table className="sheet-table admin-table">
        <thead>
          <tr>
            {withUser ? <th>Utilisateur</th> : null}
            <th>Date</th>
            <th>Libellé</th>
            <th>Type</th>
            <th>Moyen</th>
            <th>Prix</th>
            <th>Crédits</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line) => (
            <tr key={`${line.id}-${line.user_id ?? ''}`} data-testid="history-line">
              {withUser ? <td>{line.username ? <Clamped text={line.username} /> : line.user_id ? `#${line.user_id}` : '—'}</td> : null}
              <td>{formatInstant(line.date)}</td>
              <td>{line.label}</td>
              <td>{line.type}</td>
              <td>{line.method}</td>
              <td>{line.price_eur ?? line.price_paid ? formatEur(line.price_eur ?? line.price_paid) : '—'}</td>
              <td>{formatDelta(line.credits_delta, line.type)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableBox>
  );
}
