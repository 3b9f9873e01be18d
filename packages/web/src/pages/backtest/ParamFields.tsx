import { OVERLAP_PERCENT_PRESETS } from '@bt/core/params';
import { useState } from 'react';
import { OVERLAP_PARAM, type BacktestFormState, type ParamField, type ParamLayout } from './form.js';

interface Props {
  form: BacktestFormState;
  layout: ParamLayout;
  onChange: (patch: Partial<BacktestFormState>) => void;
}

function shownDefault(value: unknown): string {
  if (value === undefined || value === null || value === '') return '';
  if (typeof value === 'boolean') return value ? 'oui' : 'non';
  return String(value);
}

function OverlapField({ form, field, onChange }: { form: BacktestFormState; field: ParamField; onChange: Props['onChange'] }) {
  return (
    <fieldset className="param overlap" title={field.definition.description}>
      <legend>{field.definition.label}</legend>
      <label className="check">
        <input type="checkbox" checked={form.overlapTouch} onChange={(e) => onChange({ overlapTouch: e.target.checked })} data-testid="overlap-touch" />
        Entrée au toucher
      </label>
      {!form.overlapTouch ? (
        <div className="overlap-percent">
          <input
            type="number"
            min={0.1}
            max={100}
            step={0.1}
            inputMode="decimal"
            placeholder="%"
            value={form.overlapPercent}
            onChange={(e) => onChange({ overlapPercent: e.target.value })}
            aria-label="Profondeur en pourcentage"
            data-testid="overlap-percent"
          />
          <span className="unit">%</span>
          {OVERLAP_PERCENT_PRESETS.map((preset) => (
            <button key={preset} type="button" className={`chip${form.overlapPercent === String(preset) ? ' active' : ''}`} onClick={() => onChange({ overlapPercent: String(preset) })}>
              {preset} %
            </button>
          ))}
        </div>
      ) : null}
    </fieldset>
  );
}

function Field({ form, field, onChange }: { form: BacktestFormState; field: ParamField; onChange: Props['onChange'] }) {
  const { definition, defaultValue } = field;
  if (definition.name === OVERLAP_PARAM) return <OverlapField form={form} field={field} onChange={onChange} />;
  const value = form.params[definition.name];
  const set = (next: string | boolean) => onChange({ params: { ...form.params, [definition.name]: next } });
  const id = `param-${definition.name}`;
  if (definition.type === 'bool') {
    const checked = typeof value === 'boolean' ? value : defaultValue === true;
    return (
      <label className="param check" title={definition.description} htmlFor={id}>
        <input id={id} type="checkbox" checked={checked} onChange={(e) => set(e.target.checked)} />
        {definition.label}
      </label>
    );
  }
  if (definition.choices && definition.choices.length) {
    return (
      <label className="param" title={definition.description} htmlFor={id}>
        {definition.label}
        <select id={id} value={typeof value === 'string' && value !== '' ? value : shownDefault(defaultValue)} onChange={(e) => set(e.target.value)}>
          {definition.choices.map((choice) => (
            <option key={choice} value={choice}>
              {choice}
            </option>
          ))}
        </select>
      </label>
    );
  }
  const numeric = definition.type === 'int' || definition.type === 'float';
  return (
    <label className="param" title={definition.description} htmlFor={id}>
      {definition.label}
      <input
        id={id}
        name={definition.name}
        type={numeric ? 'number' : 'text'}
        step={definition.type === 'int' ? 1 : 'any'}
        min={definition.min}
        max={definition.max}
        inputMode={numeric ? 'decimal' : undefined}
        placeholder={shownDefault(defaultValue)}
        value={typeof value === 'string' ? value : ''}
        onChange={(e) => set(e.target.value)}
      />
    </label>
  );
}

/** Basic parameters, then the advanced ones behind a toggle (docs/product.md §2.2). */
export function ParamFields({ form, layout, onChange }: Props) {
  const [showAdvanced, setShowAdvanced] = useState(false);
  if (layout.basic.length === 0 && layout.advanced.length === 0) return null;
  return (
    <div className="params">
      <h3>Paramètres de la stratégie</h3>
      <div className="param-grid">
        {layout.basic.map((field) => (
          <Field key={field.definition.name} form={form} field={field} onChange={onChange} />
        ))}
      </div>
      {layout.advanced.length ? (
        <>
          <button type="button" className="link-button" onClick={() => setShowAdvanced((v) => !v)} aria-expanded={showAdvanced}>
            {showAdvanced ? 'Masquer les paramètres avancés' : 'Paramètres avancés'}
          </button>
          {showAdvanced ? (
            <div className="param-grid advanced">
              {layout.advanced.map((field) => (
                <Field key={field.definition.name} form={form} field={field} onChange={onChange} />
              ))}
            </div>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
