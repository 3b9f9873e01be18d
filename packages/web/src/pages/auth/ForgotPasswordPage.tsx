import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { PageMeta } from '../../components/PageMeta.js';
import { calls } from '../../runtime.js';
import { AUTH_MESSAGES } from './authForms.js';

export const FORGOT_REDIRECT_MS = 1000;

/** Request a reset link (docs/product.md §1.2, §1.4): the same confirmation whatever happened. */
export default function ForgotPasswordPage() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [state, setState] = useState<'idle' | 'sending' | 'done'>('idle');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (state !== 'done') return;
    const timer = setTimeout(() => navigate('/login?reset_link=sent', { replace: true }), FORGOT_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [state, navigate]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const value = email.trim();
    if (!value) return setError('Renseigne ton adresse e-mail.');
    setError(null);
    setState('sending');
    // Errors are swallowed: the answer must not tell whether the address exists.
    await calls.generateResetToken(value).catch(() => undefined);
    setState('done');
  }

  return (
    <div className="auth-page">
      <PageMeta title="Mot de passe oublié" />
      <div className="auth-card card">
        <h1>Mot de passe oublié</h1>
        {state === 'done' ? (
          <p className="alert alert-info" role="status" data-testid="forgot-done">{AUTH_MESSAGES.forgotDone}</p>
        ) : (
          <form className="auth-form" onSubmit={submit} noValidate>
            <label>
              E-mail
              <input type="email" name="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
            </label>
            {error ? <p className="alert alert-error" role="alert">{error}</p> : null}
            <button type="submit" className="btn btn-primary btn-block" disabled={state === 'sending'}>
              {state === 'sending' ? 'Envoi…' : 'Recevoir un lien'}
            </button>
          </form>
        )}
        <Link to="/login" className="small">Retour à la connexion</Link>
      </div>
    </div>
  );
}
