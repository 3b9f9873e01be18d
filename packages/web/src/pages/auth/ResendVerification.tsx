import { useState } from 'react';
import { HttpError } from '../../api/errors.js';
import { calls } from '../../runtime.js';
import { AUTH_MESSAGES } from './authForms.js';

/** "Resend the verification e-mail": may return the link itself when mail is not configured. */
export function ResendVerification() {
  const [state, setState] = useState<{ busy: boolean; message: string | null; error: boolean; link: string | null }>({ busy: false, message: null, error: false, link: null });

  async function resend() {
    setState({ busy: true, message: null, error: false, link: null });
    try {
      const answer = await calls.resendVerification();
      setState({ busy: false, message: AUTH_MESSAGES.resendOk, error: false, link: answer?.verifyUrl ?? null });
    } catch (failure) {
      const message = failure instanceof HttpError ? failure.detail || `HTTP ${failure.status}` : AUTH_MESSAGES.networkError;
      setState({ busy: false, message, error: true, link: null });
    }
  }

  return (
    <div className="resend">
      <button type="button" className="btn btn-ghost btn-small" onClick={resend} disabled={state.busy}>
        Renvoyer l’e-mail de vérification
      </button>
      {state.message ? <p className={`small ${state.error ? 'error-text' : 'ok-text'}`}>{state.message}</p> : null}
      {state.link ? (
        <p className="small">
          <a href={state.link}>Lien de vérification</a>
        </p>
      ) : null}
    </div>
  );
}
