import { Link } from 'react-router-dom';
import { BookOpen } from 'lucide-react';
import { generatorTexts, strategyOriginLabel } from '../../features/generator/provider.js';
import { useGeneratorProvider } from '../../features/generator/useGeneratorProvider.js';
import { OFFICIAL_STRATEGIES } from '../../lib/catalogue.js';
import { strategyDocHref } from '../reference/strategyPage.js';
import type { BacktestFormState } from './form.js';
import { personalPickerPlaceholder, type PersonalListStatus, type UserStrategy } from './userStrategies.js';

interface Props {
  form: BacktestFormState;
  userStrategies: UserStrategy[];
  /** Where the signed-in user's list stands (its first line says so). */
  listStatus: PersonalListStatus;
  loggedIn: boolean;
  onChange: (patch: Partial<BacktestFormState>) => void;
}

function Badge({ active }: { active: boolean }) {
  return <span className={`badge ${active ? 'badge-active' : 'badge-inactive'}`}>{active ? 'Actif' : 'Inactif'}</span>;
}

/** Keys that only move the focus or close something: passing through a picker is not choosing it. */
const PASSING_KEYS: ReadonlySet<string> = new Set(['Tab', 'Shift', 'Escape', 'Control', 'Alt', 'Meta']);

/**
 * Official and personal pickers (docs/product.md §2.2): touching one (a click, a key on it, a
 * choice) makes it the active source. Focus alone does not: tabbing from the official picker to
 * the pair field went through the personal one, made it active, and the run sent the personal
 * strategy still shown there instead of the official one just chosen.
 */
export function StrategyPickers({ form, userStrategies, listStatus, loggedIn, onChange }: Props) {
  const officialActive = form.source === 'official';
  const provider = useGeneratorProvider();
  return (
    <div className="pickers">
      <div className={`picker${officialActive ? ' active' : ''}`} onMouseDown={() => !officialActive && onChange({ source: 'official' })}>
        <div className="picker-head">
          <label htmlFor="official-strategy">Stratégie officielle</label>
          {/* Next to the label, the badge keeps the right edge (inline: this file's only style). */}
          <Link className="picker-doc" style={{ display: 'inline-flex', marginLeft: '.4rem', marginRight: 'auto' }} to={strategyDocHref(form.officialStrategy)} aria-label="Documentation des stratégies" title="Documentation des stratégies" data-testid="strategy-doc-link">
            <BookOpen size={16} aria-hidden="true" />
          </Link>
          <Badge active={officialActive} />
        </div>
        <select
          id="official-strategy"
          value={form.officialStrategy}
          onKeyDown={(e) => !PASSING_KEYS.has(e.key) && !officialActive && onChange({ source: 'official' })}
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
          <label htmlFor="user-strategy">{generatorTexts(provider).picker}</label>
          <Badge active={!officialActive} />
        </div>
        <select
          id="user-strategy"
          value={form.userStrategyId}
          onKeyDown={(e) => !PASSING_KEYS.has(e.key) && officialActive && onChange({ source: 'gpt' })}
          onChange={(e) => onChange({ source: 'gpt', userStrategyId: e.target.value, params: {} })}
          data-testid="user-strategy"
        >
          <option value="">{personalPickerPlaceholder(loggedIn, listStatus, userStrategies.length)}</option>
          {userStrategies.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name} · {strategyOriginLabel(s.source, provider)}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
