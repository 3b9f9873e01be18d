/**
 * The result view (docs/web.md "Result view"): a human title over the folder slug, the card's
 * figures and golden hours, the win-rate charts, the equity curve in R with its drawdown, the
 * candlestick chart of the period with every trade, and the trades list whose rows scroll the
 * chart to their trade. The backtest page and the dashboard's results overlay both show it; it is
 * its own chunk, loaded once a result is there.
 */
import { Star } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { calls } from '../../runtime.js';
import { sheetTable } from '../../pages/stats/sheets.js';
import { chartSeries, hasChartData } from './chartData.js';
import { equityCurve, parseResultChart, resultTitle, type ChartTrade, type ResultChart, type TitleParts } from './chartAnswer.js';
import { EquityChart } from './EquityChart.js';
import { figureCells, figuresFromGlobalSheet, type CardFigures } from './figures.js';
import { goldenFromSheets, type GoldenSummary } from './golden.js';
import { goldenHourText, goldenHoursLabel, tradesCountText } from './goldenText.js';
import { PriceChart } from './PriceChart.js';
import { TradesTable } from './TradesTable.js';
import WinrateCharts from './WinrateCharts.js';
import './results.css';

export interface ResultViewProps {
  folder: string;
  /** Known from the backtest answer; otherwise read from the chart answer. */
  title?: TitleParts | null;
  /** Known from the backtest answer; otherwise read from the workbook's Global sheet. */
  figures?: CardFigures | null;
  /** Known from the backtest answer; otherwise read from Par_Heure and Config. */
  golden?: GoldenSummary | null;
  /** Core's statistics (the backtest answer): the win-rate charts. */
  statistics?: unknown;
  actions?: ReactNode;
  /** Under the folder slug (the backtest page: the run's trading costs). */
  subtitle?: ReactNode;
  /** After the equity curve (the backtest page: the Monte Carlo of the run's R sequence). */
  extra?: ReactNode;
}

type Loaded<T> = { status: 'loading' } | { status: 'ready'; value: T } | { status: 'error' };

function useLoaded<T>(load: (() => Promise<T>) | null, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  useEffect(() => {
    if (!load) return;
    let alive = true;
    setState({ status: 'loading' });
    load().then(
      (value) => alive && setState({ status: 'ready', value }),
      () => alive && setState({ status: 'error' }),
    );
    return () => {
      alive = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return state;
}

/** Figures and golden hours of a stored result, from its workbook (the dashboard overlay). */
async function loadFromSheets(folder: string): Promise<{ figures: CardFigures | null; golden: GoldenSummary }> {
  const [global, hours, config] = await Promise.all([
    calls.userSheet(folder, 'Global', 0, 100),
    calls.userSheet(folder, 'Par_Heure', 0, 100),
    calls.userSheet(folder, 'Config', 0, 500),
  ]);
  return { figures: figuresFromGlobalSheet(sheetTable(global).rows), golden: goldenFromSheets(sheetTable(hours), sheetTable(config).rows) };
}

export default function ResultView({ folder, title, figures, golden, statistics, actions, subtitle, extra }: ResultViewProps) {
  const chart = useLoaded<ResultChart | null>(() => calls.resultChart(folder).then(parseResultChart), [folder]);
  const needSheets = figures === undefined || golden === undefined;
  const sheets = useLoaded(needSheets ? () => loadFromSheets(folder) : null, [folder, needSheets]);
  const [selected, setSelected] = useState<ChartTrade | null>(null);
  const chartBox = useRef<HTMLDivElement | null>(null);

  const ready = chart.status === 'ready' ? chart.value : null;
  const parts = title ?? ready;
  const shownFigures = figures !== undefined ? figures : sheets.status === 'ready' ? sheets.value.figures : null;
  const shownGolden = golden !== undefined ? golden : sheets.status === 'ready' ? sheets.value.golden : null;
  const equity = useMemo(() => (ready ? equityCurve(ready.trades) : []), [ready]);
  const series = useMemo(() => (statistics ? chartSeries(statistics, shownGolden?.hours ?? [], shownGolden?.minTrades ?? null) : null), [statistics, shownGolden]);

  const select = (trade: ChartTrade) => {
    setSelected(trade);
    chartBox.current?.scrollIntoView({ behavior: 'smooth', block: 'center' });
  };

  return (
    <section className="result-view" data-testid="result-view" data-folder={folder}>
      <header className="result-head">
        <div className="result-title">
          <h2 data-testid="result-title">{parts && parts.symbol ? resultTitle(parts) : 'Résultats'}</h2>
          <p className="muted small mono folder-slug" data-raw title="Dossier du résultat (nom du classeur)">
            {folder}
          </p>
          {subtitle}
        </div>
        {actions ? <div className="row-actions">{actions}</div> : null}
      </header>

      {shownFigures ? (
        <div className="result-figures" data-testid="result-figures">
          {figureCells(shownFigures).map((cell) => (
            <div key={cell.id} data-figure={cell.id} data-sheet-label={cell.sheetLabel} title={cell.hint}>
              <span className="label">{cell.label}</span>
              <strong>{cell.value}</strong>
            </div>
          ))}
        </div>
      ) : sheets.status === 'error' ? (
        <p className="error-text small">Chiffres indisponibles pour ce résultat.</p>
      ) : (
        <p className="muted small">Chargement des chiffres…</p>
      )}

      {shownGolden ? (
        <div className="golden-line" data-testid="golden-hours" data-hours={shownGolden.hours.map((g) => g.hour).join(',')}>
          <span className="label">{goldenHoursLabel(shownGolden.minTrades)}</span>
          {shownGolden.hours.length ? (
            <ul>
              {shownGolden.hours.map((g) => (
                <li key={g.hour}>
                  <Star size={14} className="gold" aria-hidden fill="currentColor" /> {goldenHourText(g)}
                </li>
              ))}
            </ul>
          ) : (
            <strong data-testid="no-golden-hour">{shownGolden.emptyText}</strong>
          )}
        </div>
      ) : null}

      {series && hasChartData(series) ? <WinrateCharts series={series} /> : null}

      <h3>Courbe de capital</h3>
      {ready ? <EquityChart points={equity} /> : <ChartState status={chart.status} />}
      {extra}

      <h3>Graphique des trades</h3>
      <div ref={chartBox}>{ready ? <PriceChart chart={ready} selected={selected} /> : <ChartState status={chart.status} />}</div>

      <h3>Trades {ready ? <span className="muted small" data-testid="trades-count">{tradesCountText(ready.trades.length)}</span> : null}</h3>
      {ready ? <TradesTable trades={ready.trades} pipSize={ready.pipSize ?? 0.0001} selectedId={selected?.id ?? null} onSelect={select} /> : <ChartState status={chart.status} />}
    </section>
  );
}

function ChartState({ status }: { status: 'loading' | 'ready' | 'error' }) {
  if (status === 'error') return <p className="error-text small">Données du graphique indisponibles.</p>;
  return <p className="muted small">Chargement…</p>;
}
