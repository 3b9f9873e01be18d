// The run form: the strategy's parameters (defaults from the catalogue), stops, targets, period.
// Values stay text until Run, where the CLI's own checks (core's rules) turn them into a request.
import { Box, Text, useInput } from 'ink';
import { useState } from 'react';
import { useSyncState } from './sync-state.js';
import { DEFAULT_SL_PIPS, getParam, getStrategy, paramDefaults } from '@bt/core/catalogue';
import { parsePeriod } from '../options.js';
import { checkStrategy, exitValues } from '../request.js';
import type { RunChoice } from './deps.js';
import { TextField } from './text-input.js';

interface Field {
  readonly key: string;
  readonly label: string;
  readonly hint: string;
}

export interface ParamsFormProps {
  readonly strategy: string;
  readonly symbol: string;
  readonly initial?: Record<string, string>;
  readonly onRun: (choice: RunChoice, values: Record<string, string>) => void;
  readonly onBack: () => void;
}

const RUN = '__run__';

export function initialValues(strategy: string): Record<string, string> {
  const defaults = paramDefaults(strategy);
  const values: Record<string, string> = { sl_mode: 'external', sl: String(DEFAULT_SL_PIPS), tp1: String(DEFAULT_SL_PIPS), tp2: '', from: '', to: '' };
  for (const name of getStrategy(strategy).params) values[name] = defaults[name] === undefined ? '' : String(defaults[name]);
  return values;
}

export function ParamsForm({ strategy, symbol, initial, onRun, onBack }: ParamsFormProps) {
  const definition = getStrategy(strategy);
  const [values, setValues, valuesRef] = useSyncState<Record<string, string>>(() => ({ ...initialValues(strategy), ...initial }));
  const [cursor, setCursor, cursorRef] = useSyncState(0);
  const [editing, setEditing, editingRef] = useSyncState<string | null>(null);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);

  const fields: Field[] = [
    ...definition.params.map((name) => ({ key: name, label: name, hint: getParam(name).label })),
    { key: 'sl_mode', label: 'sl_mode', hint: 'Enter: external ↔ internal' },
    { key: 'sl', label: 'sl (pips)', hint: values.sl_mode === 'internal' ? 'ignored: SL at the zone' : 'stop distance' },
    { key: 'tp1', label: 'tp1 (pips)', hint: values.sl_mode === 'internal' ? 'empty: 1R' : 'first target' },
    { key: 'tp2', label: 'tp2 (pips)', hint: 'empty: 2 × tp1 (internal: 2R)' },
    { key: 'from', label: 'from (UTC)', hint: 'YYYY-MM-DD, empty: first candle' },
    { key: 'to', label: 'to (UTC)', hint: 'YYYY-MM-DD, empty: last candle' },
    { key: RUN, label: '▶ Run', hint: '' },
  ];

  const submit = () => {
    const values = valuesRef.current;
    try {
      const params: Record<string, unknown> = {};
      for (const name of definition.params) if (values[name].trim() !== '') params[name] = values[name];
      checkStrategy(strategy, params);
      const internal = values.sl_mode === 'internal';
      const text = (v: string) => (v.trim() === '' ? undefined : v);
      const exits = exitValues({ slMode: internal ? 'internal' : 'external', sl: internal ? undefined : text(values.sl), tp1: text(values.tp1), tp2: text(values.tp2) });
      const period = parsePeriod(text(values.from), text(values.to));
      setError(null);
      onRun({ strategy, symbol, params, slMode: exits.slMode ?? 'external', slPips: exits.slPips, tp1Pips: exits.tp1Pips, tp2Pips: exits.tp2Pips, ...period }, values);
    } catch (e) {
      setError((e as Error).message);
    }
  };

  useInput(
    (input, key) => {
      if (editingRef.current !== null) return;
      const cursor = cursorRef.current;
      if (key.upArrow || input === 'k') setCursor((c) => Math.max(0, c - 1));
      else if (key.downArrow || input === 'j') setCursor((c) => Math.min(fields.length - 1, c + 1));
      else if (key.escape || input === 'b') onBack();
      else if (input === 'r') submit();
      else if (key.return) {
        const field = fields[cursor];
        if (field.key === RUN) submit();
        else if (field.key === 'sl_mode') setValues((v) => ({ ...v, sl_mode: v.sl_mode === 'internal' ? 'external' : 'internal' }));
        else {
          setDraft(valuesRef.current[field.key]);
          setEditing(field.key);
        }
      }
    },
    { isActive: editing === null },
  );

  const width = Math.max(...fields.map((f) => f.label.length));
  return (
    <Box flexDirection="column">
      <Text bold>{`Parameters · ${definition.key} · ${symbol}`}</Text>
      <Text dimColor>↑/↓ move · Enter edit (Enter again to keep, Esc to cancel) · r or ▶ Run · b back</Text>
      {fields.map((field, i) => {
        const selected = i === cursor;
        if (field.key === RUN) return <Text key={field.key} inverse={selected}>{`${selected ? '›' : ' '} ${field.label}`}</Text>;
        return (
          <Box key={field.key}>
            <Text inverse={selected && editing === null}>{`${selected ? '›' : ' '} ${field.label.padEnd(width)}  `}</Text>
            {editing === field.key ? (
              <TextField
                value={draft}
                onChange={setDraft}
                onSubmit={(v) => {
                  setValues((old) => ({ ...old, [field.key]: v.trim() }));
                  setEditing(null);
                }}
                onCancel={() => setEditing(null)}
              />
            ) : (
              <Text>{values[field.key] === '' ? '—' : values[field.key]}</Text>
            )}
            <Text dimColor>{editing === field.key ? '   editing: Enter keeps, Esc cancels' : `   ${field.hint}`}</Text>
          </Box>
        );
      })}
      {error ? <Text color="red">{`bt: ${error}`}</Text> : null}
    </Box>
  );
}
