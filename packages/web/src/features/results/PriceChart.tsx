import { formatDateTimeFr, formatPriceFr, priceDecimals } from '@bt/core/format';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { IChartApi, IPriceLine, ISeriesApi, ISeriesMarkersPluginApi, SeriesMarker, Time, UTCTimestamp } from 'lightweight-charts';
import { tradeMarkers, tradeWindow, type ChartTrade, type ResultChart } from './chartAnswer.js';

const UP = '#22c55e';
const DOWN = '#ef4444';
const OUTCOME_COLOR = { tp2: '#f5b301', tp1: '#22c55e', sl: '#ef4444', open: '#94a3b8' } as const;
const seconds = (ms: number) => Math.floor(ms / 1000) as UTCTimestamp;
/** Up to this many trades the markers carry their number and outcome in words. */
const LABELLED_TRADES = 60;

interface Drawn {
  chart: IChartApi;
  series: ISeriesApi<'Candlestick'>;
  markers: ISeriesMarkersPluginApi<Time>;
  lines: IPriceLine[];
}

/**
 * The period's candles with each trade's entry and outcome (TradingView's lightweight-charts,
 * loaded on demand: the backtest page's first load does not carry it). The selected trade gets
 * its entry, stop and targets as price lines and the chart scrolls to it.
 */
export function PriceChart({ chart, selected }: { chart: ResultChart; selected: ChartTrade | null }) {
  const host = useRef<HTMLDivElement | null>(null);
  const drawn = useRef<Drawn | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  const [entryMarkers, setEntryMarkers] = useState<number | null>(null);
  const pip = chart.pipSize ?? 0.0001;
  const candles = chart.candles;
  const markers = useMemo(() => (candles ? tradeMarkers(chart.trades, candles.time) : []), [chart.trades, candles]);

  useEffect(() => {
    const node = host.current;
    if (!node || !candles) return;
    let alive = true;
    let cleanup = () => {};
    import('lightweight-charts').then(
      (lc) => {
        if (!alive) return;
        const decimals = priceDecimals(pip);
        const api = lc.createChart(node, {
          height: 380,
          layout: { background: { type: lc.ColorType.Solid, color: 'transparent' }, textColor: '#cbd5e1', fontSize: 11 },
          grid: { vertLines: { color: 'rgba(148,163,184,.08)' }, horzLines: { color: 'rgba(148,163,184,.08)' } },
          rightPriceScale: { borderColor: 'rgba(148,163,184,.25)' },
          // The run's period is all there is: no scrolling past its first or last candle, which is
          // also what lets the library keep the edge labels whole (the first month's was cut, « ars »).
          timeScale: { borderColor: 'rgba(148,163,184,.25)', timeVisible: true, secondsVisible: false, fixLeftEdge: true, fixRightEdge: true },
          localization: { locale: 'fr-FR', priceFormatter: (p: number) => formatPriceFr(p, pip), timeFormatter: (t: Time) => `${formatDateTimeFr(Number(t) * 1000)} UTC` },
          autoSize: true,
        });
        const series = api.addSeries(lc.CandlestickSeries, {
          upColor: UP, downColor: DOWN, borderVisible: false, wickUpColor: UP, wickDownColor: DOWN,
          priceFormat: { type: 'price', precision: decimals, minMove: 10 ** -decimals },
        });
        series.setData(candles.time.map((t, i) => ({ time: seconds(t), open: candles.open[i], high: candles.high[i], low: candles.low[i], close: candles.close[i] })));
        // Labels only while they stay readable; the colours and shapes say the rest.
        const labelled = chart.trades.length <= LABELLED_TRADES;
        const list: SeriesMarker<Time>[] = markers.map((m) => ({
          id: m.id,
          time: seconds(m.time),
          position: m.kind === 'entry' ? (m.side === 'buy' ? 'belowBar' : 'aboveBar') : m.side === 'buy' ? 'aboveBar' : 'belowBar',
          shape: m.kind === 'entry' ? (m.side === 'buy' ? 'arrowUp' : 'arrowDown') : 'circle',
          color: m.kind === 'entry' ? (m.side === 'buy' ? UP : DOWN) : OUTCOME_COLOR[m.outcome],
          text: labelled ? m.text : undefined,
          size: m.kind === 'entry' ? 1 : 0.6,
        }));
        const plugin = lc.createSeriesMarkers(series, list);
        // What the library holds, not what was handed to it: the browser test counts these.
        setEntryMarkers(plugin.markers().filter((m) => String(m.id).startsWith('entry-')).length);
        api.timeScale().fitContent();
        drawn.current = { chart: api, series, markers: plugin, lines: [] };
        setState('ready');
        cleanup = () => api.remove();
      },
      () => alive && setState('error'),
    );
    return () => {
      alive = false;
      drawn.current = null;
      cleanup();
    };
  }, [candles, markers, pip, chart.trades.length]);

  useEffect(() => {
    const d = drawn.current;
    if (!d || state !== 'ready') return;
    for (const line of d.lines) d.series.removePriceLine(line);
    d.lines = [];
    if (!selected) return;
    const line = (price: number | null, color: string, title: string) => {
      if (price !== null) d.lines.push(d.series.createPriceLine({ price, color, lineWidth: 1, lineStyle: 2, axisLabelVisible: true, title }));
    };
    line(selected.entryPrice, '#e2e8f0', `Entrée #${selected.id}`);
    line(selected.sl, DOWN, 'SL');
    line(selected.tp1, UP, 'TP1');
    line(selected.tp2, OUTCOME_COLOR.tp2, 'TP2');
    const window = tradeWindow(selected, chart.chartTimeframe ?? chart.timeframe);
    d.chart.timeScale().setVisibleRange({ from: seconds(window.from), to: seconds(window.to) });
  }, [selected, state, chart.chartTimeframe, chart.timeframe]);

  if (!candles) return <p className="muted small">{chart.candlesNote ?? 'Bougies indisponibles pour ce backtest.'}</p>;
  return (
    <div className="price-chart-wrap">
      {chart.chartTimeframe && chart.chartTimeframe !== chart.timeframe ? (
        <p className="muted small">Période longue : bougies regroupées en {chart.chartTimeframe} pour l’affichage.</p>
      ) : null}
      <div
        className="price-chart"
        ref={host}
        data-testid="price-chart"
        data-state={state}
        data-entry-markers={entryMarkers === null ? undefined : String(entryMarkers)}
        data-selected-trade={selected ? String(selected.id) : undefined}
      />
      {state === 'loading' ? <p className="muted small">Chargement du graphique…</p> : null}
      {state === 'error' ? <p className="error-text small">Graphique indisponible.</p> : null}
      <p className="muted small legend">
        <span className="dot up" /> entrée à l’achat <span className="dot down" /> entrée à la vente · issue : <span className="dot tp2" /> TP2{' '}
        <span className="dot tp1" /> TP1 <span className="dot sl" /> SL · heures en UTC
      </p>
    </div>
  );
}
