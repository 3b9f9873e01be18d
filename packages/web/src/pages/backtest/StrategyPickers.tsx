import { OFFICIAL_STRATEGIES } from '../../lib/catalogue.js';
import type { BacktestFormState } from './form.js';
import type { UserStrategy } from './userStrategies.js';

interface Props {
  form: BacktestFormState;
  userStrategies: UserStrategy[];
  loggedIn: boolean;
  onChange: (patch: Partial<BacktestFormState>) => void;
}

function Badge({ active }: { active: boolean }) {
  return <span className={`badge ${active ? 'badge-active' : 'badge-inactive'}`}>{active ? 'Actif' : 'Inactif'}</span>;
}

/** Official and personal pickers (spec 2 §2): touching one makes it the active source. */
export function StrategyPickers({ form, userStrategies, loggedIn, onChange }: Props) {
  const officialActive = form.source === 'official';
  return (
    <div className="pickers">
      <div className={`picker${officialActive ? ' active' : ''}`} onMouseDown={() => !officialActive && onChange({ source: 'official' })}>
        <div className="picker-head">
          <label htmlFor="official-strategy">Stratégie officielle</label>
          <Badge active={officialActive} />
        </div>
        <select
          id="official-strategy"
          value={form.officialStrategy}
          onFocus={() => onChange({ source: 'official' })}
          onChange={(e) => onChange({ source: 'official', officialStrategy: e.target.value, params: {} })}
          data-testid="official-strategy"
        >
          <option value="">— Choisir —</option>
          {OFFICIAL_STRATEGIES.map((s) => (
            <option key={s.key} value={s.key} title={s.short}>
              {s.label}
            </option>
          ))}
        </select>
      </div>
      <div className={`picker${!officialActive ? ' active' : ''}`} onMouseDown={() => officialActive && onChange({ source: 'gpt' })}>
        <div className="picker-head">
          <label htmlFor="user-strategy">Mes stratégies (IA / import)</label>
          <Badge active={!officialActive} />
        </div>
        <select
          id="user-strategy"
          value={form.userStrategyId}
          onFocus={() => onChange({ source: 'gpt' })}
          onChange={(e) => onChange({ source: 'gpt', userStrategyId: e.target.value, params: {} })}
          data-testid="user-strategy"
        >
          <option value="">{loggedIn ? (userStrategies.length ? '— Choisir —' : 'Aucune stratégie pour le moment.') : 'Connecte-toi pour tes stratégies'}</option>
          {userStrategies.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name} {s.source === 'gpt' ? '· IA' : '· import'}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
