import * as Plot from '@observablehq/plot';
import { formatNumberFr, formatPercentFr } from '@bt/core/format';
import { bandAxis } from './bandAxis.js';
import { usePlot } from './usePlot.js';
import type { ChartPoint, ChartSeries } from './chartData.js';

const GOLD = '#f5b301';
const BAR = '#3b82f6';
const INK = '#cbd5e1';

const pct = (value: number) => formatPercentFr(value / 100);

function tip(d: ChartPoint, minTrades: number | null): string {
  const ci = d.low !== null && d.high !== null ? ` (IC 95 % ${formatNumberFr(d.low, 1)}–${formatNumberFr(d.high, 1)} %)` : '';
  const note = d.golden ? ' · Golden hour' : d.faded && minTrades !== null ? ` · moins de ${minTrades} trades résolus : pas assez pour conclure` : '';
  return `${d.label} : ${pct(d.winrate!)}${ci} · ${d.resolved} trades résolus${note}`;
}

function drawWinrate(points: ChartPoint[], title: string, width: number, series: ChartSeries): SVGSVGElement | HTMLElement {
  const data = points.filter((p) => p.winrate !== null);
  const domain = points.map((p) => p.label);
  const opacity = (d: ChartPoint) => (d.faded ? 0.28 : 0.88);
  const axis = bandAxis(domain, width);
  return Plot.plot({
    title,
    width,
    height: 240,
    marginLeft: 44,
    marginRight: 20,
    marginBottom: axis.marginBottom,
    style: { background: 'transparent', color: INK, fontSize: '11px' },
    x: { domain, label: null, ticks: axis.ticks, tickRotate: axis.tickRotate },
    y: { domain: [0, 100], label: 'Win rate TP1 (%)', grid: true },
    marks: [
      series.global === null ? null : Plot.ruleY([series.global], { stroke: '#94a3b8', strokeDasharray: '4 3' }),
      Plot.barY(data, {
        x: 'label',
        y: 'winrate',
        fill: (d: ChartPoint) => (d.golden ? GOLD : BAR),
        fillOpacity: opacity,
        title: (d: ChartPoint) => tip(d, series.minTrades),
      }),
      Plot.ruleX(
        data.filter((d) => d.low !== null && d.high !== null),
        { x: 'label', y1: 'low', y2: 'high', stroke: '#e2e8f0', strokeOpacity: opacity, strokeWidth: 1.5 },
      ),
      Plot.tickY(data.filter((d) => d.low !== null), { x: 'label', y: 'low', stroke: '#e2e8f0', strokeOpacity: opacity }),
      Plot.tickY(data.filter((d) => d.high !== null), { x: 'label', y: 'high', stroke: '#e2e8f0', strokeOpacity: opacity }),
      // The golden marker is an SVG star symbol, not a text glyph (no font needed).
      Plot.dot(
        data.filter((d) => d.golden),
        { x: 'label', y: (d: ChartPoint) => Math.min(100, (d.high ?? d.winrate ?? 0) + 5), symbol: 'star', r: 5, fill: GOLD, stroke: null },
      ),
    ],
  });
}

function Chart({ points, title, testId, series }: { points: ChartPoint[]; title: string; testId: string; series: ChartSeries }) {
  const host = usePlot((width) => drawWinrate(points, title, width, series), [points, title, series], points.length > 0);
  if (points.length === 0) return null;
  return (
    <div
      className="chart"
      ref={host}
      data-testid={testId}
      data-golden={points.filter((p) => p.golden).map((p) => p.label).join(',')}
      data-faded={points.filter((p) => p.faded).map((p) => p.label).join(',')}
    />
  );
}

/** Win rate by hour (golden hours in gold with a star, thin hours faded), by session and by weekday, with 95 % intervals. */
export default function WinrateCharts({ series }: { series: ChartSeries }) {
  const global = series.global === null ? '' : ` — tirets : win rate global ${pct(series.global)}`;
  return (
    <div className="charts">
      <Chart points={series.hours} title="Win rate TP1 par heure (UTC) — en doré : Golden hours" testId="chart-hours" series={series} />
      <div className="charts-row">
        <Chart points={series.sessions} title="Par session (UTC)" testId="chart-sessions" series={series} />
        <Chart points={series.weekdays} title="Par jour" testId="chart-weekdays" series={series} />
      </div>
      <p className="muted small">
        Barres : win rate TP1{global}. Traits : intervalle de confiance à 95 % (Wilson) — plus il est large, moins il y a de trades pour conclure.
        {series.minTrades !== null ? ` Barres pâles : moins de ${series.minTrades} trades résolus, jamais golden.` : ''}
      </p>
    </div>
  );
}
