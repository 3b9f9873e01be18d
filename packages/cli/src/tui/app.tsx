// `bt tui`: pick a data file, a symbol, a strategy and its parameters, run, browse the results.
import { Box, Text, useApp, useInput } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { useSyncState } from './sync-state.js';
import type { BacktestResult } from '@bt/core/backtest';
import { findSymbol, STRATEGIES, SYMBOLS, type SymbolDefinition } from '@bt/core/catalogue';
import type { LoadedData } from '../data.js';
import type { RunChoice, TuiDeps } from './deps.js';
import { ParamsForm } from './params-form.js';
import { ResultsView } from './results-view.js';
import { SelectList } from './select-list.js';

export interface AppProps {
  readonly deps: TuiDeps;
  readonly dir: string;
  /** Start with this file (path as given on the command line). */
  readonly data?: string;
}

type Step = 'file' | 'symbol' | 'strategy' | 'params' | 'running' | 'results';

import { count } from '../output.js';

export function App({ deps, dir, data: initialData }: AppProps) {
  const { exit } = useApp();
  const [step, setStep] = useState<Step>(initialData ? 'running' : 'file');
  const [files, setFiles] = useState<string[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [data, setData] = useState<LoadedData | null>(null);
  const [symbolText, setSymbolText] = useState('');
  const [strategy, setStrategy] = useState<string | null>(null);
  const [formValues, setFormValues] = useState<Record<string, string> | undefined>(undefined);
  const [result, setResult] = useState<BacktestResult | null>(null);

  useEffect(() => {
    deps.listFiles(dir).then(setFiles, (e: Error) => setError(e.message));
  }, [deps, dir]);

  const open = (path: string) => {
    setBusy(`Reading ${path}…`);
    setError(null);
    deps.load(path).then(
      (loaded) => {
        setData(loaded);
        setSymbolText(loaded.symbol ?? '');
        setBusy(null);
        setStep('symbol');
      },
      (e: Error) => {
        setBusy(null);
        setError(e.message);
        setStep('file');
      },
    );
  };

  useEffect(() => {
    if (initialData) open(initialData);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const run = (choice: RunChoice, values: Record<string, string>) => {
    if (!data) return;
    setFormValues(values);
    setStep('running');
    setBusy(`Running ${choice.strategy} on ${choice.symbol} ${data.timeframe ?? ''}…`);
    setError(null);
    deps.run(data, choice).then(
      (r) => {
        setResult(r);
        setBusy(null);
        setStep('results');
      },
      (e: Error) => {
        setBusy(null);
        setError(e.message);
        setStep('params');
      },
    );
  };

  const header = data ? `${data.path} · ${count(data.file.candles.length)} candles · ${data.timeframe ?? 'no timeframe'}` : `bt tui · ${dir}`;

  return (
    <Box flexDirection="column">
      <Text color="cyan">{header}</Text>
      {step === 'file' ? (
        <Box flexDirection="column">
          <Text bold>Data file</Text>
          <Text dimColor>↑/↓ move · Enter open · Ctrl+C quit</Text>
          {files === null ? <Text>Looking for candle files…</Text> : files.length === 0 ? <Text>{`No candle file under ${dir} (use --dir or --data).`}</Text> : (
            <SelectList items={files.map((f) => ({ label: f }))} onSelect={(i) => open(`${dir === '.' ? '' : `${dir}/`}${files[i]}`)} active={busy === null} />
          )}
        </Box>
      ) : null}
      {step === 'symbol' && data ? (
        <Box flexDirection="column">
          <Text bold>Symbol</Text>
          <Text dimColor>{`type to filter · Enter takes the highlighted symbol${data.symbol ? ` (found: ${data.symbol}, from the ${data.symbolFrom})` : ''} · Esc back`}</Text>
          <Text>
            {`> ${symbolText}`}
            <Text inverse> </Text>
          </Text>
          <SymbolPicker text={symbolText} setText={setSymbolText}
            onPick={(symbol) => { setSymbolText(symbol); setStep('strategy'); }} onBack={() => setStep('file')} />
        </Box>
      ) : null}
      {step === 'strategy' ? (
        <Box flexDirection="column">
          <Text bold>{`Strategy · ${symbolText}`}</Text>
          <Text dimColor>↑/↓ move · Enter choose · Esc back</Text>
          <SelectList
            items={STRATEGIES.map((s) => ({ label: s.key, hint: s.label }))}
            initial={Math.max(0, STRATEGIES.findIndex((s) => s.key === strategy))}
            onSelect={(i) => {
              if (STRATEGIES[i].key !== strategy) setFormValues(undefined);
              setStrategy(STRATEGIES[i].key);
              setStep('params');
            }}
            onCancel={() => setStep('symbol')}
          />
        </Box>
      ) : null}
      {step === 'params' && strategy ? (
        <ParamsForm strategy={strategy} symbol={symbolText} initial={formValues} onRun={run} onBack={() => setStep('strategy')} />
      ) : null}
      {step === 'results' && result ? (
        <ResultsView result={result} onBack={() => setStep('params')} onNew={() => { setResult(null); setData(null); setStep('file'); }} onQuit={() => exit()} />
      ) : null}
      {busy ? <Text color="yellow">{busy}</Text> : null}
      {error ? <Text color="red">{`bt: ${error}`}</Text> : null}
    </Box>
  );
}

/** Catalogue symbols matching what was typed (symbol or French label), the exact match first. */
function matchesFor(text: string): SymbolDefinition[] {
  const typed = text.toUpperCase().replace(/[\s/_-]/g, '');
  const exact = findSymbol(text)?.symbol;
  return SYMBOLS.filter((s) => typed === '' || s.symbol === exact || s.symbol.replace(/-/g, '').includes(typed) || s.label.toLowerCase().includes(text.toLowerCase())).sort(
    (a, b) => Number(b.symbol === exact) - Number(a.symbol === exact),
  );
}

/** The symbol step: typing filters the catalogue list; the list takes ↑/↓/Enter. */
function SymbolPicker(props: { text: string; setText: (t: string) => void; onPick: (s: string) => void; onBack: () => void }) {
  const matches = matchesFor(props.text);
  const [cursor, setCursor, cursorRef] = useSyncState(0);
  const text = useRef(props.text);
  text.current = props.text;
  const type = (next: string) => {
    text.current = next;
    setCursor(0);
    props.setText(next);
  };
  useInput((input, key) => {
    if (key.upArrow) setCursor((c) => Math.max(0, c - 1));
    else if (key.downArrow) setCursor((c) => Math.min(matchesFor(text.current).length - 1, c + 1));
    else if (key.escape) props.onBack();
    else if (key.return) {
      const exact = findSymbol(text.current);
      const picked = matchesFor(text.current)[cursorRef.current]?.symbol ?? exact?.symbol;
      if (picked) props.onPick(picked);
    } else if (key.backspace || key.delete) type(text.current.slice(0, -1));
    else if (input && !key.ctrl && !key.meta && !key.tab) type(text.current + input);
  });
  const rows = 8;
  const start = Math.max(0, Math.min(cursor - 3, matches.length - rows));
  return (
    <Box flexDirection="column">
      {matches.length === 0 ? <Text color="red">{`no catalogue symbol matches "${props.text}" (bt backtest --pip-size handles other instruments)`}</Text> : null}
      {matches.slice(start, start + rows).map((s, i) => (
        <Text key={s.symbol} inverse={start + i === cursor}>
          {`${start + i === cursor ? '›' : ' '} ${s.symbol}  `}
          <Text dimColor>{`${s.label} · pip ${s.pipSize}`}</Text>
        </Text>
      ))}
    </Box>
  );
}
