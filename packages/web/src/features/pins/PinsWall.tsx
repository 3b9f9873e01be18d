/**
 * The pins wall (docs/product.md §2.2): embedded in the dashboard and standalone ('Mes épingles'). Filters
 * Métrique, Type, Période, then Heure / Session / Jour for those types; advanced Paire, Stratégie,
 * Tri and a search. Each pin: Détails (the results overlay on its sheet) and Retirer.
 */
import { useMemo, useState } from 'react';
import { formatCellFr } from '@bt/core/format';
import { periodLabel, winrateClass } from '../../lib/format.js';
import { strategyLabel } from '../../lib/catalogue.js';
import { pinStore, usePins } from './browserPins.js';
import { NO_PIN_FILTERS, PIN_SORTS, bucketFilterOf, pinFilterOptions, visiblePins, type PinFilters, type PinSort } from './filters.js';
import { bucketLabel, folderView, isWinrateMetric, pinResultsTitle, metricLabel, PIN_TYPE_LABELS, SHEET_OF_TYPE, type Pin } from './pin.js';
import { ResultsOverlay } from './ResultsOverlay.js';

export const PINS_EMPTY_MESSAGE = 'Aucune épingle pour le moment.';
export const PINS_NO_MATCH_MESSAGE = 'Aucune épingle ne correspond à ces filtres.';

function Select({ label, value, options, onChange, all, testId }: { label: string; value: string; options: { id: string; label: string }[]; onChange: (value: string) => void; all: string; testId: string }) {
  return (
    <label className="pins-filter">
      <span>{label}</span>
      <select value={value} onChange={(event) => onChange(event.target.value)} data-testid={testId}>
        <option value="">{all}</option>
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

const same = (values: string[]) => values.map((v) => ({ id: v, label: v }));
/** Raw values as ids (what the filters compare), shown as the cards write them. */
const shownAs = (values: string[], label: (value: string) => string) => values.map((v) => ({ id: v, label: label(v) }));

function PinCard({ pin, onDetails }: { pin: Pin; onDetails: () => void }) {
  const facts = folderView(pin.folder);
  const tone = isWinrateMetric(pin.key) ? winrateClass(pin.value) : null;
  const bucket = bucketLabel(pin);
  return (
    <article className="card pin-card" data-testid="pin-card">
      <div className="pin-card-head">
        <span className="pin-metric">{metricLabel(pin)}</span>
        <span className="badge">{PIN_TYPE_LABELS[pin.type] ?? pin.type}</span>
      </div>
      <strong className={`pin-value${tone ? ` winrate-${tone}` : ''}`} data-testid="pin-value">
        {formatCellFr(pin.value, pin.key)}
      </strong>
      {bucket ? <span className="pin-bucket">{bucket}</span> : null}
      <span className="small">
        {facts.pair} <span className="tf-badge">{facts.timeframe}</span> · {facts.strategy}
      </span>
      {facts.period ? <span className="muted small">{facts.period}</span> : null}
      <div className="row-actions">
        <button type="button" className="btn btn-small" onClick={onDetails}>
          Détails
        </button>
        <button type="button" className="btn btn-small btn-ghost" onClick={() => pinStore.unpin(pin.id)}>
          Retirer
        </button>
      </div>
    </article>
  );
}

export function PinsWall({ standalone = false }: { standalone?: boolean }) {
  const pins = usePins();
  const [filters, setFilters] = useState<PinFilters>(NO_PIN_FILTERS);
  const [advanced, setAdvanced] = useState(false);
  const [details, setDetails] = useState<Pin | null>(null);
  const options = useMemo(() => pinFilterOptions(pins), [pins]);
  const shown = useMemo(() => visiblePins(pins, filters), [pins, filters]);
  const bucket = bucketFilterOf(filters.type);
  const set = (patch: Partial<PinFilters>) => setFilters((current) => ({ ...current, ...patch }));

  return (
    <div className={`pins-wall${standalone ? ' standalone' : ''}`} data-testid="pins-wall">
      {pins.length === 0 ? (
        <p className="empty-state" data-testid="pins-empty">
          {PINS_EMPTY_MESSAGE}
        </p>
      ) : (
        <>
          <div className="pins-filters">
            <Select label="Métrique" value={filters.metric} options={same(options.metrics)} onChange={(metric) => set({ metric })} all="Toutes" testId="pins-metric" />
            <Select label="Type" value={filters.type} options={options.types} onChange={(type) => set({ type, hour: '', session: '', day: '' })} all="Tous" testId="pins-type" />
            <Select label="Période" value={filters.period} options={shownAs(options.periods, periodLabel)} onChange={(period) => set({ period })} all="Toutes" testId="pins-period" />
            {bucket?.field === 'hour' ? <Select label="Heure" value={filters.hour} options={same(options.hours)} onChange={(hour) => set({ hour })} all="Toutes" testId="pins-hour" /> : null}
            {bucket?.field === 'session' ? <Select label="Session" value={filters.session} options={same(options.sessions)} onChange={(session) => set({ session })} all="Toutes" testId="pins-session" /> : null}
            {bucket?.field === 'day' ? <Select label="Jour" value={filters.day} options={same(options.days)} onChange={(day) => set({ day })} all="Tous" testId="pins-day" /> : null}
            <button type="button" className="link-button" aria-expanded={advanced} onClick={() => setAdvanced(!advanced)}>
              {advanced ? 'Masquer les filtres avancés' : 'Filtres avancés'}
            </button>
          </div>
          {advanced ? (
            <div className="pins-filters advanced">
              <Select label="Paire" value={filters.pair} options={same(options.pairs)} onChange={(pair) => set({ pair })} all="Toutes" testId="pins-pair" />
              <Select label="Stratégie" value={filters.strategy} options={shownAs(options.strategies, strategyLabel)} onChange={(strategy) => set({ strategy })} all="Toutes" testId="pins-strategy" />
              <label className="pins-filter">
                <span>Tri</span>
                <select value={filters.sort} onChange={(event) => set({ sort: event.target.value as PinSort })} data-testid="pins-sort">
                  {PIN_SORTS.map((sort) => (
                    <option key={sort.id} value={sort.id}>
                      {sort.label}
                    </option>
                  ))}
                </select>
              </label>
              <label className="pins-filter pins-search">
                <span>Recherche</span>
                <input type="search" value={filters.search} placeholder="Paire, stratégie, métrique…" onChange={(event) => set({ search: event.target.value })} data-testid="pins-search" />
              </label>
            </div>
          ) : null}
          <p className="muted small" data-testid="pins-count">
            {shown.length} / {pins.length} épingle{pins.length > 1 ? 's' : ''}
          </p>
          {shown.length === 0 ? (
            <p className="empty-state">{PINS_NO_MATCH_MESSAGE}</p>
          ) : (
            <div className="card-grid pins-grid">
              {shown.map((pin) => (
                <PinCard key={pin.id} pin={pin} onDetails={() => setDetails(pin)} />
              ))}
            </div>
          )}
        </>
      )}
      {details ? <ResultsOverlay folder={details.folder} title={pinResultsTitle(details.folder)} initialSheet={SHEET_OF_TYPE[details.type]} onClose={() => setDetails(null)} withResultView /> : null}
    </div>
  );
}
