// A long job's progress in a terminal (Ink): bar, done and failed, workers, speed, ETA, a last line.
// Shared by `bt batch` (runs) and `bt optimize` / `bt walk-forward` (combinations).
import { Box, Text } from 'ink';
import { duration } from './text.js';

export interface ProgressState {
  readonly total: number;
  readonly done: number;
  readonly failed: number;
  readonly workers: number;
  readonly elapsedMs: number;
  /** Estimated time left; null before the first item. */
  readonly etaMs: number | null;
}

export interface ProgressViewProps {
  readonly title: string;
  readonly progress: ProgressState;
  /** What is counted: runs, combinations. */
  readonly unit: string;
  /** The last item, or the best so far; null: none yet. */
  readonly last: string | null;
  /** Colours only where the CLI allows them (TTY, no NO_COLOR). */
  readonly color: boolean;
  readonly width?: number;
}

export const rateOf = (p: ProgressState) => (p.elapsedMs > 0 ? (p.done / p.elapsedMs) * 1000 : 0);

export function ProgressView({ title, progress: p, unit, last, color, width = 32 }: ProgressViewProps) {
  const fraction = p.total > 0 ? p.done / p.total : 1;
  const filled = Math.round(fraction * width);
  const ok = p.done - p.failed;
  return (
    <Box flexDirection="column">
      <Text bold>{title}</Text>
      <Text>
        <Text color={color ? 'green' : undefined}>{'█'.repeat(filled)}</Text>
        <Text dimColor={color}>{'░'.repeat(width - filled)}</Text>
        {` ${p.done}/${p.total} (${Math.floor(fraction * 100)}%)`}
      </Text>
      <Text>
        <Text color={color ? 'green' : undefined}>{`${ok} done`}</Text>
        {' · '}
        <Text color={color && p.failed > 0 ? 'red' : undefined}>{`${p.failed} failed`}</Text>
        {` · ${p.workers} workers · ${rateOf(p).toFixed(1)} ${unit}/s · ETA ${p.done === p.total ? '0 s' : duration(p.etaMs)}`}
      </Text>
      {last !== null ? <Text dimColor={color}>{last}</Text> : null}
    </Box>
  );
}
