import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { Modal } from '../../components/Modal.js';
import { TRADE_HEADERS, configLabel, configValueText, formatCellFr } from '@bt/core/format';
import {
  DEFAULT_HOURLY_TIME_ZONE,
  HOURLY_TIME_ZONES,
  defaultSheet,
  isHiddenMetric,
  shiftHourlyRows,
  timeZoneOffsetHours,
  usesInternalStop,
  utcOffsetLabel,
} from '../../lib/format.js';
import { CONFIG_SHEET, HOURLY_SHEET, forgetFailedSheets, metricValueRows, sheetLabel, sheetNames, sheetPipSize, sheetTable, type SheetTable } from './sheets.js';
import { ScrollX } from '../../components/ScrollX.js';
import { useRovingGroup } from '../../lib/useRovingGroup.js';

export const MISSING_FOLDER_MESSAGE = 'Aucune donnée XLSX associée à cette stratégie (folder manquant).';

export interface SheetsModalProps {
  title: ReactNode;
  folder: string | null;
  loadMeta: (folder: string) => Promise<unknown>;
  loadSheet: (folder: string, sheet: string) => Promise<unknown>;
  /** Sheets this modal may show, in the server's order. */
  allowed: readonly string[];
  onClose: () => void;
  /** Shown above the tabs (charts, download). */
  header?: ReactNode;
  footer?: ReactNode;
  /** A trailing cell on each row of the listed sheets (the pins' "pin this metric"). */
  rowAction?: { sheets: readonly string[]; render: (context: SheetRowContext) => ReactNode };
  /** The tab to open first, when the workbook has it (a pin's Détails). */
  initialSheet?: string;
}

/** What a row action knows of its row. */
export interface SheetRowContext {
  folder: string | null;
  sheet: string;
  headers: string[];
  row: unknown[];
  /** Per-hour rows: the hour as shown ('15h') and the zone's offset in hours. */
  bucketLabel?: string;
  tzOffset?: number;
}

type RowAction = ((row: unknown[], extra?: { bucketLabel: string; tzOffset: number }) => ReactNode) | null;

type SheetState = { status: 'loading' } | { status: 'ready'; table: SheetTable } | { status: 'error' };

/** The pin column comes first, so it never covers a value (wide sheets scroll sideways under nothing). */
const ActionHead = ({ action }: { action: RowAction }) => (action ? <th className="row-action" aria-label="Épingler" /> : null);

function HourlyTable({ table, timeZone, at, action }: { table: SheetTable; timeZone: string; at: number; action: RowAction }) {
  const hourIndex = Math.max(0, table.headers.findIndex((h) => /heure|hour/i.test(h)));
  const offset = timeZoneOffsetHours(timeZone, at);
  const zone = HOURLY_TIME_ZONES.find((z) => z.id === timeZone);
  const shifted = shiftHourlyRows(table.rows, (row) => row[hourIndex], offset);
  const headers = table.headers.map((h, i) => (i === hourIndex ? `Heure (${zone?.label ?? timeZone}, ${utcOffsetLabel(offset)})` : h));
  return (
    <table className="sheet-table" data-testid="sheet-table">
      <thead>
        <tr>
          <ActionHead action={action} />
          {headers.map((h, i) => <th key={i}>{h}</th>)}
        </tr>
      </thead>
      <tbody>
        {shifted.map(({ label, row }, r) => (
          <tr key={r}>
            {action ? <td className="row-action">{action(row, { bucketLabel: label, tzOffset: offset })}</td> : null}
            {row.map((cell, c) => (
              <td key={c}>{c === hourIndex ? label : formatCellFr(cell, table.headers[c])}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * A metric/value sheet (Config, Global, TP2_Global): the first cell names the row and decides its
 * format; hidden rows (run bookkeeping, stop sizes of an internal stop) are left out.
 */
function MetricTable({ table, internalStop, action = null }: { table: SheetTable; internalStop: boolean; action?: RowAction }) {
  const rows = table.rows.filter((row) => !isHiddenMetric(row[0], internalStop));
  const showHeaders = table.headers.length > 2;
  return (
    <table className="sheet-table metric-table" data-testid="sheet-table">
      {showHeaders ? (
        <thead>
          <tr>
            <ActionHead action={action} />
            {table.headers.map((h, i) => <th key={i}>{h}</th>)}
          </tr>
        </thead>
      ) : null}
      <tbody>
        {rows.map((row, i) => (
          <tr key={i}>
            {action ? <td className="row-action">{action(row)}</td> : null}
            <th scope="row">{String(row[0] ?? '')}</th>
            {row.slice(1).map((cell, c) => (
              <td key={c}>{formatCellFr(cell, row[0])}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Config in French: a label per parameter (its raw name in the tooltip) and values in words. */
function ConfigTable({ table, internalStop }: { table: SheetTable; internalStop: boolean }) {
  const rows = table.rows.filter((row) => !isHiddenMetric(row[0], internalStop));
  return (
    <table className="sheet-table metric-table" data-testid="sheet-table">
      <tbody>
        {rows.map((row, i) => {
          const metric = String(row[0] ?? '');
          return (
            <tr key={i} data-metric={metric}>
              <th scope="row" title={metric}>
                {configLabel(metric)}
              </th>
              <td data-raw={metric === 'engine_version' || metric === 'run_id' ? '' : undefined}>{configValueText(metric, row[1])}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** Columns kept for scripts but not for reading (the 0-based candle index of the entry). */
const HIDDEN_COLUMNS: ReadonlySet<string> = new Set([TRADE_HEADERS.entryIndex]);

function GridTable({ table, action = null, pipSize }: { table: SheetTable; action?: RowAction; pipSize: number | null }) {
  const shown = table.headers.map((h, i) => i).filter((i) => !HIDDEN_COLUMNS.has(table.headers[i]));
  return (
    <table className="sheet-table" data-testid="sheet-table">
      <thead>
        <tr>
          <ActionHead action={action} />
          {shown.map((i) => <th key={i}>{table.headers[i]}</th>)}
        </tr>
      </thead>
      <tbody>
        {table.rows.map((row, r) => (
          <tr key={r}>
            {action ? <td className="row-action">{action(row)}</td> : null}
            {shown.map((c) => (
              <td key={c}>{formatCellFr(row[c], table.headers[c], { pipSize })}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Config rows as [metric, value], whatever order the answer gave its columns in. */
function configTable(table: SheetTable): SheetTable {
  return { headers: ['metric', 'value'], rows: metricValueRows(table).map((r) => [r.metric, r.value]) };
}

/** Metric/value sheets (Config, Global, TP2_Global) have two or three columns, the first naming the row. */
function isMetricSheet(table: SheetTable): boolean {
  return table.headers.length >= 2 && table.headers.length <= 3 && /^(indicateur|metric|métrique)$/i.test(table.headers[0]?.trim() ?? '');
}

/** Period start read from the Config sheet, so zone offsets follow the run's season (DST). */
function configInstant(table: SheetTable | null): number {
  if (table) {
    for (const row of metricValueRows(table)) {
      if (/^(start_date|from_date|date_debut)$/i.test(row.metric.trim())) {
        const time = Date.parse(String(row.value));
        if (Number.isFinite(time)) return time;
      }
    }
  }
  return Date.now();
}

/** Statistics modal with one tab per sheet (docs/product.md §1.2 public variant, docs/product.md §2.2 results variant). */
export function SheetsModal({ title, folder, loadMeta, loadSheet, allowed, onClose, header, footer, rowAction, initialSheet }: SheetsModalProps) {
  const [names, setNames] = useState<string[] | null>(null);
  const [active, setActive] = useState<string | null>(null);
  const [sheets, setSheets] = useState<Record<string, SheetState>>({});
  const [timeZone, setTimeZone] = useState(DEFAULT_HOURLY_TIME_ZONE);
  const tabIds = useId();

  useEffect(() => {
    if (!folder) return;
    let alive = true;
    loadMeta(folder).then(
      (meta) => {
        if (!alive) return;
        const list = sheetNames(meta, allowed);
        setNames(list);
        setActive(initialSheet && list.includes(initialSheet) ? initialSheet : defaultSheet(list));
      },
      // A failed meta call shows as an empty sheet list (docs/product.md §1.8).
      () => alive && setNames([]),
    );
    return () => {
      alive = false;
    };
  }, [folder, loadMeta, allowed, initialSheet]);

  const wanted = useMemo(() => {
    const list = new Set<string>();
    if (active) list.add(active);
    // Config decides which rows hide (sl_mode) and the hourly sheet's season: always fetched.
    if (names?.includes(CONFIG_SHEET)) list.add(CONFIG_SHEET);
    return [...list];
  }, [active, names]);

  useEffect(() => {
    if (!folder) return;
    for (const name of wanted) {
      if (sheets[name]) continue;
      setSheets((current) => ({ ...current, [name]: { status: 'loading' } }));
      loadSheet(folder, name).then(
        (answer) => setSheets((current) => ({ ...current, [name]: { status: 'ready', table: sheetTable(answer) } })),
        () => setSheets((current) => ({ ...current, [name]: { status: 'error' } })),
      );
    }
  }, [folder, wanted, sheets, loadSheet]);

  const config = sheets[CONFIG_SHEET]?.status === 'ready' ? (sheets[CONFIG_SHEET] as { table: SheetTable }).table : null;
  // The _sl0 / sl_mode rule (docs/product.md §1.2) lives in core; Config rows come as [metric, value].
  const internalStop = usesInternalStop({ folder, config: config ? configTable(config).rows : null });
  const current = active ? sheets[active] : undefined;

  const action: RowAction =
    rowAction && active && rowAction.sheets.includes(active) && current?.status === 'ready'
      ? (row, extra) => rowAction.render({ folder, sheet: active, headers: current.table.headers, row, ...extra })
      : null;

  const choose = (name: string) => {
    setActive(name);
    // A sheet that failed (and Config, fetched with every tab) is asked for again.
    setSheets((current) => forgetFailedSheets(current, [name, CONFIG_SHEET]));
  };
  const activeIndex = names && active ? names.indexOf(active) : -1;
  // WAI-ARIA tabs: one tab stop (the active tab), the arrows, Home and End move and choose
  // (docs/web.md "Keyboard in groups").
  const tabKeys = useRovingGroup(names?.length ?? 0, activeIndex, (index) => names && choose(names[index]));

  let body: ReactNode;
  if (!folder) body = <p className="empty-state">{MISSING_FOLDER_MESSAGE}</p>;
  else if (names === null) body = <p className="muted">Chargement…</p>;
  else if (names.length === 0 || !active) body = <p className="empty-state">Aucune feuille disponible pour ce résultat.</p>;
  else if (!current || current.status === 'loading') body = <p className="muted">Chargement…</p>;
  else if (current.status === 'error') body = <p className="error-text">Impossible de charger cette feuille.</p>;
  else if (active === HOURLY_SHEET) body = <HourlyTable table={current.table} timeZone={timeZone} at={configInstant(config)} action={action} />;
  else if (active === CONFIG_SHEET) body = <ConfigTable table={configTable(current.table)} internalStop={internalStop} />;
  else if (isMetricSheet(current.table)) body = <MetricTable table={current.table} internalStop={internalStop} action={action} />;
  else body = <GridTable table={current.table} action={action} pipSize={sheetPipSize(active, config)} />;

  return (
    <Modal title={title} onClose={onClose} wide footer={footer} className="sheets-modal">
      {header}
      {names && names.length > 0 ? (
        <div className="tabs" role="tablist" aria-label="Feuilles du classeur" onKeyDown={tabKeys.onKeyDown}>
          {names.map((name, index) => (
            <button
              key={name}
              {...tabKeys.item(index)}
              id={`${tabIds}-tab-${index}`}
              type="button"
              role="tab"
              aria-selected={name === active}
              aria-controls={name === active ? `${tabIds}-panel` : undefined}
              className={`tab${name === active ? ' active' : ''}`}
              onClick={() => choose(name)}
              data-sheet={name}
            >
              {sheetLabel(name)}
            </button>
          ))}
        </div>
      ) : null}
      {active === HOURLY_SHEET && names?.includes(HOURLY_SHEET) ? (
        <label className="tz-select">
          Fuseau horaire{' '}
          <select value={timeZone} onChange={(event) => setTimeZone(event.target.value)} data-testid="tz-select">
            {HOURLY_TIME_ZONES.map((zone) => (
              <option key={zone.id} value={zone.id}>
                {zone.label}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <div role={activeIndex >= 0 ? 'tabpanel' : undefined} id={`${tabIds}-panel`} aria-labelledby={activeIndex >= 0 ? `${tabIds}-tab-${activeIndex}` : undefined}>
        <ScrollX className="sheet-body" label="Tableau de la feuille">{body}</ScrollX>
      </div>
    </Modal>
  );
}
