// A keyboard list: ↑/↓ (or k/j) move, Enter picks; a window of rows follows the cursor.
import { Box, Text, useInput } from 'ink';
import { useSyncState } from './sync-state.js';

export interface SelectItem {
  readonly label: string;
  readonly hint?: string;
}

export interface SelectListProps {
  readonly items: readonly SelectItem[];
  readonly onSelect: (index: number) => void;
  readonly onCancel?: () => void;
  readonly initial?: number;
  readonly rows?: number;
  readonly active?: boolean;
}

export function SelectList({ items, onSelect, onCancel, initial = 0, rows = 12, active = true }: SelectListProps) {
  const [cursor, setCursor, cursorRef] = useSyncState(Math.min(Math.max(0, initial), Math.max(0, items.length - 1)));
  useInput(
    (input, key) => {
      if (key.upArrow || input === 'k') setCursor((c) => (c > 0 ? c - 1 : c));
      else if (key.downArrow || input === 'j') setCursor((c) => (c < items.length - 1 ? c + 1 : c));
      else if (key.pageDown) setCursor((c) => Math.min(items.length - 1, c + rows));
      else if (key.pageUp) setCursor((c) => Math.max(0, c - rows));
      else if (key.return && items.length > 0) onSelect(cursorRef.current);
      else if (key.escape) onCancel?.();
    },
    { isActive: active },
  );
  const start = Math.max(0, Math.min(cursor - Math.floor(rows / 2), items.length - rows));
  const shown = items.slice(start, start + rows);
  return (
    <Box flexDirection="column">
      {start > 0 ? <Text dimColor>{`  ↑ ${start} more`}</Text> : null}
      {shown.map((item, i) => {
        const selected = start + i === cursor;
        return (
          <Text key={start + i} inverse={selected}>
            {`${selected ? '›' : ' '} ${item.label}`}
            {item.hint ? <Text dimColor={!selected}>{`  ${item.hint}`}</Text> : null}
          </Text>
        );
      })}
      {start + rows < items.length ? <Text dimColor>{`  ↓ ${items.length - start - rows} more`}</Text> : null}
    </Box>
  );
}
