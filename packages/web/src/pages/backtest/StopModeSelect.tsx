export type StopMode = 'external' | 'internal';

/** The stop-loss mode of a personal strategy (AI generation and .py import ask the same). */
export function StopModeSelect({ value, onChange }: { value: StopMode; onChange: (mode: StopMode) => void }) {
  return (
    <label>
      Stop-loss
      <select value={value} onChange={(e) => onChange(e.target.value as StopMode)}>
        <option value="external">Externe (SL/TP en pips)</option>
        <option value="internal">Interne (bord de zone)</option>
      </select>
    </label>
  );
}
