import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { HttpError } from '../../api/errors.js';
import { PageMeta } from '../../components/PageMeta.js';
import { calls } from '../../runtime.js';
import { AUTH_MESSAGES, validateNewPassword } from './authForms.js';

export const RESET_REDIRECT_MS = 1200;

/** Set a new password from a reset link (docs/product.md §1.2, §1.4, §1.5). */
export default function ResetPasswordPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [state, setState] = useState<'idle' | 'submitting' | 'success'>('idle');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (state !== 'success') return;
    const timer = setTimeout(() => navigate('/login?reset=1', { replace: true }), RESET_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [state, navigate]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = validateNewPassword(password, confirmation);
    if (problem) return setError(problem);
    setError(null);
    setState('submitting');
    try {
      const answer = await calls.resetPassword(token, password);
      if (answer?.status === 'success') setState('success');
      else {
        setError(answer?.detail || answer?.message || AUTH_MESSAGES.resetInvalid);
        setState('idle');
      }
    } catch (failure) {
      setError(failure instanceof HttpError ? failure.detail || AUTH_MESSAGES.resetInvalid : AUTH_MESSAGES.networkError);
      setState('idle');
    }
  }

  return (
    <div className="auth-page">
      <PageMeta title="Nouveau mot de passe" noindex />
      <div className="auth-card card">
        <h1>Nouveau mot de passe</h1>
        {state === 'success' ? (
          <p className="alert alert-info" role="status" data-testid="reset-done">{AUTH_MESSAGES.resetDone}</p>
        ) : (
          <form className="auth-form" onSubmit={submit} noValidate>
            <label>
              Nouveau mot de passe
              <input type="password" name="new_password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
            </label>
            <label>
              Confirmation
              <input type="password" name="confirmation" autoComplete="new-password" value={confirmation} onChange={(e) => setConfirmation(e.target.value)} />
            </label>
            {error ? <p className="alert alert-error" role="alert">{error}</p> : null}
            <button type="submit" className="btn btn-primary btn-block" disabled={state === 'submitting'}>
              {state === 'submitting' ? 'Enregistrement…' : 'Changer mon mot de passe'}
            </button>
          </form>
        )}
        <Link to="/login" className="small">Retour à la connexion</Link>
      </div>
    </div>
  );
}
