import { formatCompactFr } from '@bt/core/format';
import * as Plot from '@observablehq/plot';
import { useEffect, useRef, useState } from 'react';
import { ScrollX } from '../../components/ScrollX.js';
import {
  chartHeight,
  chartPoints,
  chartWidth,
  formatValue,
  radarGrid,
  radarPolygons,
  valueScale,
  type ChartPoint,
  type ChartType,
  type CompareChartModel,
  type RadarVertex,
} from './chartModel.js';

const INK = '#cbd5e1';
const GRID = 'rgba(148,163,184,0.28)';
const STYLE = { background: 'transparent', color: INK, fontSize: '11px' };

function colorRange(model: CompareChartModel) {
  return { domain: model.series.map((s) => s.label), range: model.series.map((s) => s.color) };
}

/**
 * What bars and lines share: size, margins, palette, and the value axis from 0 with the model's
 * ticks, percent shown as such.
 */
function valueChartOptions(model: CompareChartModel, width: number, height: number) {
  const { max, ticks } = valueScale(model);
  return {
    width,
    height,
    marginLeft: 48,
    marginBottom: 40,
    style: STYLE,
    color: colorRange(model),
    y: { domain: [0, max], ticks, grid: true, label: null, tickFormat: (v: number) => (model.valueType === 'percentage' ? `${formatCompactFr(v, 2)}\u202f%` : formatCompactFr(v, 2)) },
  };
}

/** A point's tooltip: its series, bucket and value. */
const pointTitle = (model: CompareChartModel) => (d: Pick<ChartPoint, 'series' | 'bucket' | 'value'>) => `${d.series}\n${d.bucket} : ${formatValue(d.value, model)}`;

/** Bucket labels turn when there are many (24 hours). */
const bucketTickRotate = (model: CompareChartModel) => (model.buckets.length > 12 ? -45 : 0);

/** Grouped bars: one facet per bucket (fx), the series side by side inside it (x). */
function drawBars(model: CompareChartModel, width: number, height: number) {
  return Plot.plot({
    ...valueChartOptions(model, width, height),
    fx: { domain: model.buckets, label: null, tickRotate: bucketTickRotate(model), padding: 0.15 },
    x: { domain: model.series.map((s) => s.label), axis: null, padding: 0.08 },
    marks: [
      Plot.barY(chartPoints(model), {
        fx: 'bucket',
        x: 'series',
        y: 'value',
        fill: 'series',
        title: pointTitle(model),
      }),
      Plot.ruleY([0], { stroke: GRID }),
    ],
  });
}

function drawLine(model: CompareChartModel, width: number, height: number) {
  const points = chartPoints(model);
  return Plot.plot({
    ...valueChartOptions(model, width, height),
    x: { domain: model.buckets, label: null, tickRotate: bucketTickRotate(model), type: 'point', padding: 0.5 },
    marks: [
      // One line per series through its buckets; Plot breaks the line at a null (missing) value.
      ...model.series.map((s) =>
        Plot.lineY(
          model.buckets.map((bucket, i) => ({ bucket, value: s.values[i] })),
          { x: 'bucket', y: 'value', stroke: s.color, strokeWidth: 2 },
        ),
      ),
      Plot.dot(points, { x: 'bucket', y: 'value', fill: 'series', r: 3.5, title: pointTitle(model) }),
    ],
  });
}

/** Plot has no radar: the buckets become spokes and each value a point projected to x/y. */
function drawRadar(model: CompareChartModel, width: number, height: number) {
  const size = Math.max(300, Math.min(width, height));
  const grid = radarGrid(model);
  const polygons = radarPolygons(model);
  const vertices = polygons.flatMap((ring) => ring.slice(0, -1)).filter((v) => v.value !== null);
  const extent = 1.32; // room for the bucket labels around the outer ring
  return Plot.plot({
    width: size,
    height: size,
    margin: 10,
    style: STYLE,
    x: { domain: [-extent, extent], axis: null },
    y: { domain: [-extent, extent], axis: null },
    color: colorRange(model),
    marks: [
      ...grid.rings.map((ring) => Plot.line(ring, { x: 'x', y: (d: { y: number }) => -d.y, stroke: GRID })),
      Plot.link(grid.spokes, { x1: 0, y1: 0, x2: 'x', y2: (d: { y: number }) => -d.y, stroke: GRID }),
      Plot.text(grid.spokes, {
        x: (d: { x: number }) => d.x * 1.14,
        y: (d: { y: number }) => -d.y * 1.14,
        text: 'bucket',
        fill: INK,
        fontSize: model.buckets.length > 12 ? 9 : 11,
      }),
      Plot.text(grid.ringLabels, { x: 'x', y: (d: { y: number }) => -d.y, text: 'text', fill: '#64748b', textAnchor: 'start', fontSize: 9 }),
      ...polygons.map((ring) =>
        Plot.line(ring, { x: 'x', y: (d: RadarVertex) => -d.y, stroke: ring[0]?.color, strokeWidth: 2, fill: ring[0]?.color, fillOpacity: 0.12 }),
      ),
      Plot.dot(vertices, {
        x: 'x',
        y: (d: RadarVertex) => -d.y,
        fill: 'series',
        r: 3.5,
        title: pointTitle(model),
      }),
    ],
  });
}

export function drawCompareChart(model: CompareChartModel, type: ChartType, width: number, height: number): SVGSVGElement | HTMLElement {
  if (type === 'radar') return drawRadar(model, width, height);
  if (type === 'line') return drawLine(model, width, height);
  return drawBars(model, width, height);
}

function useWindowHeight(): number {
  const [height, setHeight] = useState(() => (typeof window === 'undefined' ? 800 : window.innerHeight));
  useEffect(() => {
    const onResize = () => setHeight(window.innerHeight);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return height;
}

/** The chart, redrawn on model, type and size changes; scrolls sideways when wider than its box. */
export default function CompareChart({ model, type }: { model: CompareChartModel; type: ChartType }) {
  const box = useRef<HTMLDivElement | null>(null);
  const host = useRef<HTMLDivElement | null>(null);
  const windowHeight = useWindowHeight();
  useEffect(() => {
    const container = box.current;
    const node = host.current;
    if (!container || !node) return;
    let lastWidth = -1;
    const render = () => {
      const available = container.clientWidth || 900;
      if (available === lastWidth) return;
      lastWidth = available;
      const chart = drawCompareChart(model, type, chartWidth(available, type), chartHeight(windowHeight));
      chart.setAttribute('data-chart-type', type);
      node.replaceChildren(chart);
    };
    render();
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(render) : null;
    observer?.observe(container);
    return () => {
      observer?.disconnect();
      node.replaceChildren();
    };
  }, [model, type, windowHeight]);
  return (
    <ScrollX className="compare-chart-box" boxRef={box} label="Graphique comparatif">
      <div className="compare-chart" ref={host} data-testid="compare-chart" data-chart-type={type} />
    </ScrollX>
  );
}
