import * as Plot from '@observablehq/plot';
import { useEffect, useRef } from 'react';
import type { ChartPoint, ChartSeries } from './chartData.js';

const GOLD = '#f5b301';
const BAR = '#3b82f6';
const INK = '#cbd5e1';

function drawWinrate(points: ChartPoint[], title: string, width: number): SVGSVGElement | HTMLElement {
  const data = points.filter((p) => p.winrate !== null);
  const domain = points.map((p) => p.label);
  return Plot.plot({
    title,
    width,
    height: 240,
    marginLeft: 44,
    marginBottom: 36,
    style: { background: 'transparent', color: INK, fontSize: '11px' },
    x: { domain, label: null, tickRotate: points.length > 12 ? -45 : 0 },
    y: { domain: [0, 100], label: 'Win rate TP1 (%)', grid: true },
    marks: [
      Plot.ruleY([50], { stroke: '#64748b', strokeDasharray: '4 3' }),
      Plot.barY(data, {
        x: 'label',
        y: 'winrate',
        fill: (d: ChartPoint) => (d.golden ? GOLD : BAR),
        fillOpacity: 0.85,
        title: (d: ChartPoint) =>
          `${d.label} : ${d.winrate!.toFixed(2)}%` +
          (d.low !== null && d.high !== null ? ` (IC 95 % ${d.low.toFixed(1)}–${d.high.toFixed(1)}%)` : '') +
          ` · ${d.resolved} trades${d.golden ? ' · Golden hour' : ''}`,
      }),
      Plot.ruleX(
        data.filter((d) => d.low !== null && d.high !== null),
        { x: 'label', y1: 'low', y2: 'high', stroke: '#e2e8f0', strokeWidth: 1.5 },
      ),
      Plot.tickY(
        data.filter((d) => d.low !== null),
        { x: 'label', y: 'low', stroke: '#e2e8f0' },
      ),
      Plot.tickY(
        data.filter((d) => d.high !== null),
        { x: 'label', y: 'high', stroke: '#e2e8f0' },
      ),
      Plot.text(
        data.filter((d) => d.golden),
        { x: 'label', y: (d: ChartPoint) => Math.min(100, (d.high ?? d.winrate ?? 0) + 5), text: () => '★', fill: GOLD, fontSize: 14 },
      ),
    ],
  });
}

function Chart({ points, title, testId }: { points: ChartPoint[]; title: string; testId: string }) {
  const host = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    const node = host.current;
    if (!node || points.length === 0) return;
    const render = () => {
      const width = Math.max(300, node.clientWidth || 600);
      node.replaceChildren(drawWinrate(points, title, width));
    };
    render();
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(render) : null;
    observer?.observe(node);
    return () => {
      observer?.disconnect();
      node.replaceChildren();
    };
  }, [points, title]);
  if (points.length === 0) return null;
  return <div className="chart" ref={host} data-testid={testId} />;
}

/** Win rate by hour (golden hours in gold), by session and by weekday, with 95 % intervals. */
export default function WinrateCharts({ series }: { series: ChartSeries }) {
  return (
    <div className="charts">
      <Chart points={series.hours} title="Win rate TP1 par heure (UTC) — ★ Golden hours" testId="chart-hours" />
      <div className="charts-row">
        <Chart points={series.sessions} title="Par session (UTC)" testId="chart-sessions" />
        <Chart points={series.weekdays} title="Par jour" testId="chart-weekdays" />
      </div>
      <p className="muted small">Barres : win rate TP1. Traits : intervalle de confiance à 95 % (Wilson) — plus il est large, moins il y a de trades pour conclure.</p>
    </div>
  );
}
