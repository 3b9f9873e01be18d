// The batch's progress in a terminal (Ink): the shared view with the last run below it.
import { ProgressView } from '../progress/view.js';
import type { Progress } from './pool.js';
import { runLabel } from './progress-text.js';

export interface BatchProgressProps {
  readonly title: string;
  readonly progress: Progress;
  /** Colours only where the CLI allows them (TTY, no NO_COLOR). */
  readonly color: boolean;
  readonly width?: number;
}

export function BatchProgress({ title, progress: p, color, width }: BatchProgressProps) {
  const last = p.last ? `last: ${runLabel(p.last)}${p.last.ok ? ` · ${p.last.trades} trades` : ` · failed: ${p.last.error}`}` : null;
  return <ProgressView title={title} progress={p} unit="runs" last={last} color={color} width={width} />;
}
