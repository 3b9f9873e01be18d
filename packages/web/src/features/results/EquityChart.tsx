import * as Plot from '@observablehq/plot';
import { formatCompactFr, formatDateTimeFr, formatNumberFr, formatRFr } from '@bt/core/format';
import type { EquityPoint } from './chartAnswer.js';
import { usePlot } from './usePlot.js';

const INK = '#cbd5e1';
const LINE = '#38bdf8';
const LOSS = '#ef4444';
const tick = (d: number) => formatCompactFr(d, 2);

// One short line per figure: on a 375 px phone a single long line ran past the chart's edge.
function tip(p: EquityPoint): string {
  if (p.tradeId === null) return 'Départ : 0 R';
  return `Trade n° ${p.tradeId}\n${formatDateTimeFr(p.time)} UTC\ncumul ${formatRFr(p.equity)}\ndrawdown ${formatRFr(p.drawdown)}`;
}

/** What the two figures share, so the curve and its drawdown line up. */
const frame = (width: number, height: number) => ({ width, height, marginLeft: 48, style: { background: 'transparent', color: INK, fontSize: '11px' } });

function drawEquity(points: EquityPoint[], width: number): HTMLElement | SVGSVGElement {
  return Plot.plot({
    ...frame(width, 220),
    x: { label: 'Trades résolus, dans l’ordre des entrées', tickFormat: tick },
    y: { label: 'Cumul (R, au TP1)', grid: true, tickFormat: tick },
    marks: [
      Plot.ruleY([0], { stroke: '#64748b' }),
      Plot.lineY(points, { x: 'index', y: 'equity', stroke: LINE, strokeWidth: 2 }),
      Plot.dot(points.slice(-1), { x: 'index', y: 'equity', fill: LINE, r: 3 }),
      // Dark box: Plot's default white fill left the light text of this dark theme unreadable.
      Plot.tip(points, Plot.pointerX({ x: 'index', y: 'equity', title: tip, fill: '#0f172a', stroke: '#475569' })),
    ],
  });
}

function drawDrawdown(points: EquityPoint[], width: number): HTMLElement | SVGSVGElement {
  return Plot.plot({
    ...frame(width, 120),
    x: { label: null, tickFormat: tick },
    y: { label: 'Drawdown (R)', grid: true, tickFormat: tick },
    marks: [
      Plot.areaY(points, { x: 'index', y: 'drawdown', fill: LOSS, fillOpacity: 0.35, curve: 'step-after' }),
      Plot.lineY(points, { x: 'index', y: 'drawdown', stroke: LOSS, curve: 'step-after' }),
      Plot.ruleY([0], { stroke: '#64748b' }),
    ],
  });
}

/** The equity curve in R at TP1 (entry order, from 0) with its drawdown underneath. */
export function EquityChart({ points }: { points: EquityPoint[] }) {
  const enabled = points.length > 1;
  const equity = usePlot((width) => drawEquity(points, width), [points], enabled);
  const drawdown = usePlot((width) => drawDrawdown(points, width), [points], enabled);
  const last = points[points.length - 1];
  if (!enabled) return <p className="muted small">Aucun trade résolu : pas de courbe de capital.</p>;
  return (
    <figure className="equity" data-testid="equity-chart" data-last-equity={String(last.equity)} data-points={String(points.length)}>
      <figcaption>
        Courbe de capital en R (TP1) — cumul final <strong>{formatRFr(last.equity)}</strong>, drawdown max{' '}
        <strong>{formatNumberFr(Math.abs(Math.min(...points.map((p) => p.drawdown))))}{'\u202f'}R</strong>
      </figcaption>
      <div className="chart" ref={equity} />
      <div className="chart" ref={drawdown} />
    </figure>
  );
}
