/** Jour / Semaine / Mois / Tout / Custom, with Du and Au for Custom (range.ts holds the rules). */
import { RANGE_BUTTONS, withEnd, withPreset, withStart, type RangeState } from './range.js';

export function RangeBar({ value, onChange, testId = 'range-bar' }: { value: RangeState; onChange: (next: RangeState) => void; testId?: string }) {
  return (
    <div className="admin-range" data-testid={testId}>
      <div className="admin-range-buttons" role="group" aria-label="Période">
        {RANGE_BUTTONS.map((b) => (
          <button
            key={b.key}
            type="button"
            className={`chip${value.range === b.key ? ' active' : ''}`}
            aria-pressed={value.range === b.key}
            onClick={() => onChange(withPreset(value, b.key))}
            data-range={b.key}
          >
            {b.label}
          </button>
        ))}
      </div>
      {value.range === 'custom' ? (
        <div className="admin-range-dates">
          <label className="admin-inline">
            Du
            <input type="date" value={value.start} onChange={(e) => onChange(withStart(value, e.target.value))} data-testid="range-start" />
          </label>
          <label className="admin-inline">
            Au
            <input type="date" value={value.end} onChange={(e) => onChange(withEnd(value, e.target.value))} data-testid="range-end" />
          </label>
        </div>
      ) : null}
    </div>
  );
}
