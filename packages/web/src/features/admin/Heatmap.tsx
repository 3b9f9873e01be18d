/** The 7 × 24 heatmap (Monday first); a cell opens the drill-down list of its backtests. */
import { useState } from 'react';
import type { HeatmapRow, RangeQuery } from '../../api/admin.js';
import { Modal } from '../../components/Modal.js';
import { admin } from './client.js';
import { PagedDetails } from './DetailsTable.js';
import { DRILL_DOWN_PAGES } from './rules.js';
import { cellShade, gridMax, heatmapGrid, WEEKDAY_NAMES, WEEKDAYS } from './heatmap.js';
import { MSG } from './messages.js';

function DrillDown({ weekday, hour, count, range, onClose }: { weekday: number; hour: number; count: number; range: RangeQuery; onClose: () => void }) {
  return (
    <Modal title={`Backtests du ${WEEKDAY_NAMES[weekday]}, ${hour} h–${hour + 1} h (UTC) : ${count}`} onClose={onClose} wide>
      <PagedDetails load={(limit, offset) => admin.details('backtests_count', range, { weekday, hour, limit, offset })} deps={[weekday, hour, JSON.stringify(range)]} sizes={DRILL_DOWN_PAGES} testId="heatmap-drilldown" />
    </Modal>
  );
}

export function Heatmap({ rows, range }: { rows: HeatmapRow[]; range: RangeQuery }) {
  const grid = heatmapGrid(rows);
  const max = gridMax(grid);
  const [open, setOpen] = useState<{ weekday: number; hour: number; count: number } | null>(null);
  return (
    <figure className="admin-figure" data-testid="heatmap">
      <figcaption>Backtests par jour et heure de lancement (UTC)</figcaption>
      <div className="admin-heatmap-box">
        <table className="admin-heatmap">
          <thead>
            <tr>
              <th />
              {Array.from({ length: 24 }, (_, h) => (
                <th key={h} scope="col">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {grid.map((hours, day) => (
              <tr key={WEEKDAYS[day]}>
                <th scope="row">{WEEKDAYS[day]}</th>
                {hours.map((count, hour) => (
                  <td key={hour}>
                    <button
                      type="button"
                      className="admin-heat-cell"
                      style={{ backgroundColor: `rgba(59, 130, 246, ${cellShade(count, max).toFixed(3)})` }}
                      title={`${WEEKDAYS[day]} ${hour} h : ${count}`}
                      aria-label={`${WEEKDAY_NAMES[day]} ${hour} h : ${count} backtest(s)`}
                      disabled={count === 0}
                      onClick={() => setOpen({ weekday: day, hour, count })}
                      data-testid="heat-cell"
                      data-day={day}
                      data-hour={hour}
                      data-count={count}
                    >
                      {count > 0 ? count : ''}
                    </button>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {max === 0 ? <p className="muted small">{MSG.empty}</p> : null}
      {open ? <DrillDown {...open} range={range} onClose={() => setOpen(null)} /> : null}
    </figure>
  );
}
