// The batch's progress in a terminal (Ink): bar, runs done and failed, speed, ETA, last run.
import { Box, Text } from 'ink';
import type { Progress } from './pool.js';
import { duration, rate, runLabel } from './progress-text.js';

export interface BatchProgressProps {
  readonly title: string;
  readonly progress: Progress;
  /** Colours only where the CLI allows them (TTY, no NO_COLOR). */
  readonly color: boolean;
  readonly width?: number;
}

export function BatchProgress({ title, progress: p, color, width = 32 }: BatchProgressProps) {
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
        {` · ${p.workers} workers · ${rate(p).toFixed(1)} runs/s · ETA ${p.done === p.total ? '0 s' : duration(p.etaMs)}`}
      </Text>
      {p.last ? <Text dimColor={color}>{`last: ${runLabel(p.last)}${p.last.ok ? ` · ${p.last.trades} trades` : ` · failed: ${p.last.error}`}`}</Text> : null}
    </Box>
  );
}
