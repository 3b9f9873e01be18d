/**
 * Geometry and mode rules of the hexagon background (docs/product.md §1.2, §1.9): flat-top hexagons of edge 80
 * with a 3 px gap; light blobs whose radius pulses by 6 %; blur scaled by the device pixel ratio;
 * a lite mode at 2 GB of device memory or less (and when the user asks for reduced motion);
 * a static fallback without canvas.
 */

export const HEX = { edge: 80, gap: 3, pulse: 0.06, baseBlurPx: 40 } as const;

export type BackgroundMode = 'animated' | 'lite' | 'static';

export interface EnvironmentHints {
  /** navigator.deviceMemory in GB (undefined where the browser hides it). */
  deviceMemory?: number;
  canvasSupported: boolean;
  reducedMotion?: boolean;
}

export function backgroundMode(env: EnvironmentHints): BackgroundMode {
  if (!env.canvasSupported) return 'static';
  if (typeof env.deviceMemory === 'number' && env.deviceMemory <= 2) return 'lite';
  if (env.reducedMotion) return 'lite';
  return 'animated';
}

export interface Point {
  x: number;
  y: number;
}

/** Centres of the flat-top hexagons covering a width x height area (one extra ring past each edge). */
export function hexCenters(width: number, height: number, edge: number = HEX.edge): Point[] {
  const columnStep = edge * 1.5;
  const rowStep = Math.sqrt(3) * edge;
  const centers: Point[] = [];
  const columns = Math.ceil(width / columnStep) + 2;
  const rows = Math.ceil(height / rowStep) + 2;
  for (let c = -1; c < columns; c++) {
    const offset = c % 2 === 0 ? 0 : rowStep / 2;
    for (let r = -1; r < rows; r++) centers.push({ x: c * columnStep, y: r * rowStep + offset });
  }
  return centers;
}

/** Corners of one flat-top hexagon, shrunk so neighbours keep `gap` pixels between them. */
export function hexCorners(center: Point, edge: number = HEX.edge, gap: number = HEX.gap): Point[] {
  // The distance between parallel sides of neighbours is gap when each loses gap/2 of apothem.
  const radius = edge - gap / Math.sqrt(3);
  const corners: Point[] = [];
  for (let i = 0; i < 6; i++) {
    const angle = (Math.PI / 3) * i;
    corners.push({ x: center.x + radius * Math.cos(angle), y: center.y + radius * Math.sin(angle) });
  }
  return corners;
}

/** Blob radius at time t (ms): base radius pulsing by ±6 % with its own period. */
export function pulsedRadius(baseRadius: number, tMs: number, periodMs: number, phase = 0): number {
  return baseRadius * (1 + HEX.pulse * Math.sin((2 * Math.PI * tMs) / periodMs + phase));
}

/** Blur in canvas pixels: the CSS blur times the device pixel ratio (at least 1). */
export function blurForDpr(devicePixelRatio: number | undefined, basePx: number = HEX.baseBlurPx): number {
  const dpr = typeof devicePixelRatio === 'number' && devicePixelRatio > 0 ? devicePixelRatio : 1;
  return Math.round(basePx * dpr);
}
