import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { PageMeta } from '../../components/PageMeta.js';
import { calls } from '../../runtime.js';
import { SUPPORT_SENT_RESET_MS, SUPPORT_TABS, supportFailureMessage, supportPayload, validateSupport, type SupportFields, type SupportType } from './support.js';
import { Hexagon } from 'lucide-react';
import { useRovingGroup } from '../../lib/useRovingGroup.js';

const EMPTY: SupportFields = { firstName: '', lastName: '', email: '', message: '' };

/** Support page (docs/product.md §1.2): not indexed, two tabs, one form. */
export default function SupportPage() {
  const location = useLocation();
  const [type, setType] = useState<SupportType>('contact');
  const [fields, setFields] = useState<SupportFields>(EMPTY);
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (state !== 'sent') return;
    const timer = setTimeout(() => setState('idle'), SUPPORT_SENT_RESET_MS);
    return () => clearTimeout(timer);
  }, [state]);

  const bind = (name: keyof SupportFields) => ({
    name,
    value: fields[name],
    onChange: (e: { target: { value: string } }) => setFields((f) => ({ ...f, [name]: e.target.value })),
  });

  const tabKeys = useRovingGroup(SUPPORT_TABS.length, SUPPORT_TABS.findIndex((t) => t.id === type), (index) => setType(SUPPORT_TABS[index].id));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = validateSupport(fields);
    if (problem) return setError(problem);
    setError(null);
    setState('sending');
    try {
      await calls.support(supportPayload(type, fields, location.pathname, Date.now()));
      setFields(EMPTY);
      setState('sent');
    } catch (failure) {
      setError(supportFailureMessage(failure));
      setState('idle');
    }
  }

  return (
    <div className="support-page">
      <PageMeta title="Support" noindex />
      <header className="bare-header">
        <Link to="/" className="logo">
          <Hexagon className="logo-mark" size={22} strokeWidth={2.5} aria-hidden="true" /> bt
        </Link>
        <nav className="mini-nav" aria-label="Navigation">
          <Link to="/">Accueil</Link>
          <Link to="/dashboard">Dashboard</Link>
          <Link to="/backtest">Backtest</Link>
          <Link to="/csv-shop">CSV Shop</Link>
        </nav>
      </header>
      <article className="card support-card">
        <h1>Support</h1>
        <p className="muted">Notre support est disponible 24/7. Décris ta question ou ta suggestion, on te répond par e-mail.</p>
        <div className="tabs" role="tablist" aria-label="Type de demande" onKeyDown={tabKeys.onKeyDown}>
          {SUPPORT_TABS.map((tab, index) => (
            <button key={tab.id} type="button" role="tab" aria-selected={type === tab.id} className={`tab${type === tab.id ? ' active' : ''}`} onClick={() => setType(tab.id)} {...tabKeys.item(index)}>
              {tab.label}
            </button>
          ))}
        </div>
        <form className="auth-form" onSubmit={submit} noValidate data-testid="support-form">
          <div className="form-row">
            <label>
              Prénom
              <input autoComplete="given-name" {...bind('firstName')} />
            </label>
            <label>
              Nom
              <input autoComplete="family-name" {...bind('lastName')} />
            </label>
          </div>
          <label>
            E-mail
            <input type="email" autoComplete="email" {...bind('email')} />
          </label>
          <label>
            Message
            <textarea rows={6} {...bind('message')} placeholder={type === 'feedback' ? 'Une idée, un bug ? Dis-nous tout.' : 'Ta question…'} />
          </label>
          {error ? <p className="alert alert-error" role="alert">{error}</p> : null}
          <button type="submit" className="btn btn-primary" disabled={state !== 'idle'} data-testid="support-submit">
            {state === 'sending' ? 'Envoi...' : state === 'sent' ? 'Envoyé' : 'Envoyer'}
          </button>
        </form>
      </article>
      <footer className="bare-footer">
        <Link to="/legal/mentions-legales">Mentions légales</Link>
        <Link to="/legal/politique-confidentialite">Politique de confidentialité</Link>
        <Link to="/legal/cgu">CGU</Link>
      </footer>
    </div>
  );
}
