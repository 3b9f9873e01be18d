// The results of a run: the Global, Sessions, Par_Heure and Jour_Semaine sheets (the workbook's
// own sheets, built in memory) and the golden hours, one tab at a time.
import { Box, Text, useInput } from 'ink';
import { useMemo } from 'react';
import { useSyncState } from './sync-state.js';
import type { BacktestResult } from '@bt/core/backtest';
import { LABELS } from '@bt/core/format';
import { renderTable } from '../output.js';
import { sheetText } from '../sheet-text.js';
import { BUCKET_COLUMNS, goldenHourRows, noGoldenHour, resultSheets, runTitle } from '../summary.js';

export const TABS = ['Global', 'Sessions', 'Heures', 'Jours', 'Golden hours'] as const;

export interface ResultsViewProps {
  readonly result: BacktestResult;
  readonly onBack: () => void;
  readonly onNew: () => void;
  readonly onQuit: () => void;
  readonly rows?: number;
}

function tables(result: BacktestResult): Record<(typeof TABS)[number], { headers: readonly string[]; rows: readonly (readonly string[])[]; metric?: boolean }> {
  const sheets = resultSheets(result);
  const global = sheetText(sheets.Global);
  const golden = goldenHourRows(result);
  return {
    Global: { ...global, metric: true },
    Sessions: sheetText(sheets.Sessions, [LABELS.session, LABELS.sessionHours, ...BUCKET_COLUMNS]),
    Heures: sheetText(sheets.Par_Heure, [LABELS.hour, ...BUCKET_COLUMNS]),
    Jours: sheetText(sheets.Jour_Semaine, [LABELS.weekday, ...BUCKET_COLUMNS]),
    'Golden hours': golden,
  };
}

export function ResultsView({ result, onBack, onNew, onQuit, rows = 14 }: ResultsViewProps) {
  const all = useMemo(() => tables(result), [result]);
  const [tab, setTab, tabRef] = useSyncState(0);
  const [scroll, setScroll] = useSyncState(0);
  const current = all[TABS[tab]];
  const maxScroll = Math.max(0, current.rows.length - rows);
  useInput((input, key) => {
    const tab = tabRef.current;
    const go = (t: number) => {
      setTab((t + TABS.length) % TABS.length);
      setScroll(0);
    };
    if (key.rightArrow || key.tab || input === 'l') go(tab + 1);
    else if (key.leftArrow || input === 'h') go(tab - 1);
    else if (input >= '1' && input <= String(TABS.length)) go(Number(input) - 1);
    else if (key.downArrow || input === 'j') setScroll((s) => Math.min(maxScroll, s + 1));
    else if (key.upArrow || input === 'k') setScroll((s) => Math.max(0, s - 1));
    else if (key.pageDown) setScroll((s) => Math.min(maxScroll, s + rows));
    else if (key.pageUp) setScroll((s) => Math.max(0, s - rows));
    else if (input === 'b' || key.escape) onBack();
    else if (input === 'n') onNew();
    else if (input === 'q') onQuit();
  });
  const visible = current.rows.slice(scroll, scroll + rows);
  const body =
    current.rows.length === 0
      ? `  ${noGoldenHour(result)}`
      : renderTable(current.headers, visible, { indent: '  ', ...(current.metric ? { align: current.headers.map((_, c) => (c === 0 ? 'left' : 'right')) } : {}) });
  return (
    <Box flexDirection="column">
      <Text bold>{runTitle(result)}</Text>
      <Text dimColor>{`${result.counts.trades} trades · ${result.counts.setups} setups · engine ${Math.round(result.timing.engine_ms)} ms`}</Text>
      <Box>
        {TABS.map((name, i) => (
          <Text key={name} inverse={i === tab}>{` ${i + 1} ${name} `}</Text>
        ))}
      </Box>
      <Text>{body}</Text>
      <Text dimColor>
        {`${current.rows.length > rows ? `rows ${scroll + 1}-${scroll + visible.length} of ${current.rows.length} · ↑/↓ scroll · ` : ''}←/→ or 1-5 tabs · b parameters · n new run · q quit`}
      </Text>
    </Box>
  );
}
