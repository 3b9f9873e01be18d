import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { answerKey, type RegisterAnswer, type RegisterPayload } from '../../api/calls.js';
import { HttpError, errorDetail } from '../../api/errors.js';
import { Modal } from '../../components/Modal.js';
import { PageMeta } from '../../components/PageMeta.js';
import { analytics, calls, session } from '../../runtime.js';
import { leaveForGoogleSignIn } from '../../session/googleSignIn.js';
import { safeNext } from '../../session/next.js';
import { useSession } from '../../session/react.js';
import { AUTH_MESSAGES, googleSignIn, providerFailureMessage, registrationSucceeded, tabFromQuery, validateLogin, validateRegister, type AuthTab } from './authForms.js';
import { ResendVerification } from './ResendVerification.js';
import { Hexagon, PartyPopper } from 'lucide-react';
import { useRovingGroup } from '../../lib/useRovingGroup.js';
import { useAnswerOnce } from '../../lib/useAnswerOnce.js';

function LegalLinks() {
  return (
    <p className="legal-links small">
      En continuant, tu acceptes les <Link to="/legal/cgu">CGU</Link>, la <Link to="/legal/politique-confidentialite">politique de confidentialité</Link> et les{' '}
      <Link to="/legal/mentions-legales">mentions légales</Link>.
    </p>
  );
}

/** The Google button; disabled, with why, on a server that has no Google sign-in configured. */
function GoogleButton({ next }: { next: string }) {
  const availability = useAnswerOnce(calls.health, googleSignIn, 'unknown' as 'available' | 'unavailable' | 'unknown');
  const off = availability === 'unavailable';
  return (
    <>
      <button
        type="button"
        className="btn btn-google"
        disabled={off}
        aria-describedby={off ? 'google-unavailable' : undefined}
        onClick={() => leaveForGoogleSignIn(next)}
        data-testid="google-signin"
      >
        <span aria-hidden="true" className="g-mark">G</span> Continuer avec Google
      </button>
      {off ? (
        <p className="muted small" id="google-unavailable" data-testid="google-unavailable">
          {AUTH_MESSAGES.googleUnavailable}
        </p>
      ) : null}
    </>
  );
}

function LoginForm({ next }: { next: string }) {
  const navigate = useNavigate();
  const [identifier, setIdentifier] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = validateLogin({ identifier, password });
    if (!checked.ok) return setError(checked.error);
    setError(null);
    setBusy(true);
    try {
      const answer = await calls.login(checked.identifier, checked.password);
      const key = answerKey(answer);
      if (!key) {
        setError(answer?.message || answer?.detail || AUTH_MESSAGES.loginFailed);
        return;
      }
      try {
        await session.login(key);
      } catch (profileError) {
        // The profile call failed: analytics still learns who tried (docs/product.md §1.7).
        analytics.identify(checked.identifier.includes('@') ? { email: checked.identifier } : { username: checked.identifier });
        throw profileError;
      }
      navigate(next, { replace: true });
    } catch (failure) {
      if (failure instanceof HttpError) setError(failure.detail || AUTH_MESSAGES.loginFailed);
      else setError(failure instanceof Error && failure.message ? failure.message : AUTH_MESSAGES.unexpectedLogin);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="auth-form" onSubmit={submit} noValidate data-testid="login-form">
      <label>
        E-mail ou nom d’utilisateur
        <input name="identifier" autoComplete="username" value={identifier} onChange={(e) => setIdentifier(e.target.value.replace(/^\s+/, ''))} />
      </label>
      <label>
        Mot de passe
        <input name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
      </label>
      {error ? <p className="alert alert-error" role="alert">{error}</p> : null}
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {busy ? 'Connexion…' : 'Se connecter'}
      </button>
      <Link to="/forgot-password" className="small">
        Mot de passe oublié ?
      </Link>
    </form>
  );
}

const EMPTY_REGISTER: RegisterPayload = { first_name: '', last_name: '', email: '', username: '', password: '' };

function RegisterForm({ next }: { next: string }) {
  const navigate = useNavigate();
  const [form, setForm] = useState<RegisterPayload>(EMPTY_REGISTER);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<RegisterAnswer | null>(null);

  const field = (name: keyof RegisterPayload) => ({
    name,
    value: form[name],
    onChange: (e: { target: { value: string } }) => setForm((f) => ({ ...f, [name]: e.target.value })),
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = validateRegister(form);
    if (!checked.ok) return setError(checked.error);
    setError(null);
    setBusy(true);
    try {
      const answer = await calls.register(checked.payload);
      if (!registrationSucceeded(answer)) {
        setError(answer?.message || answer?.detail || AUTH_MESSAGES.registerFailed);
        return;
      }
      const key = answerKey(answer);
      if (key) await session.login(key).catch(() => undefined);
      setDone(answer);
    } catch (failure) {
      if (failure instanceof HttpError) setError(errorDetail(failure.body) || AUTH_MESSAGES.registerFailed);
      else setError(AUTH_MESSAGES.unexpectedRegister);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <form className="auth-form" onSubmit={submit} noValidate data-testid="register-form">
        <div className="form-row">
          <label>
            Prénom
            <input autoComplete="given-name" {...field('first_name')} />
          </label>
          <label>
            Nom
            <input autoComplete="family-name" {...field('last_name')} />
          </label>
        </div>
        <label>
          E-mail
          <input type="email" autoComplete="email" {...field('email')} />
        </label>
        <label>
          Nom d’utilisateur
          <input autoComplete="username" {...field('username')} />
        </label>
        <label>
          Mot de passe
          <input type="password" autoComplete="new-password" {...field('password')} />
        </label>
        {error ? <p className="alert alert-error" role="alert">{error}</p> : null}
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? 'Création…' : 'Créer mon compte'}
        </button>
      </form>
      {done ? (
        <Modal
          title={
            <>
              Compte créé <PartyPopper size={20} aria-hidden="true" className="inline-icon" />
            </>
          } onClose={() => navigate('/home', { replace: true })}>
          <div data-testid="signup-success">
            <p>{done.message || 'Bienvenue sur bt ! Confirme ton adresse e-mail pour recevoir tes crédits offerts.'}</p>
            {done.verifyUrl ? (
              <p className="alert alert-warn">
                L’envoi d’e-mails n’est pas configuré : <a href={done.verifyUrl}>confirme ton adresse ici</a>.
              </p>
            ) : null}
            <ResendVerification />
            <button type="button" className="btn btn-primary" onClick={() => navigate(next, { replace: true })} data-testid="signup-continue">
              Continuer
            </button>
          </div>
        </Modal>
      ) : null}
    </>
  );
}

/** The two tabs, in their order on screen (arrow keys: docs/web.md "Keyboard in groups"). */
const AUTH_TABS: readonly AuthTab[] = ['login', 'register'];

export default function LoginPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const state = useSession();
  const tab = tabFromQuery(params.get('tab'));
  const next = safeNext(params.get('next'));
  const provider = params.get('provider');
  const recreateLimit = params.get('error') === 'recreate_limit';
  const [providerFailed, setProviderFailed] = useState(false);

  // Return from third-party sign-in: its code (or a link's key) was taken from the address before
  // the first render and handed to the session (session/bootstrap.ts). A refused code shows why,
  // even over a session that was kept.
  const redeemFailed = state.signInFailure !== null;
  useEffect(() => {
    if (!provider) return;
    if (redeemFailed) setProviderFailed(true);
    else if (state.status === 'ready') navigate(next, { replace: true });
    else if (state.status === 'anonymous' && !recreateLimit) setProviderFailed(true);
  }, [provider, state.status, next, navigate, recreateLimit, redeemFailed]);
  const failure = state.signInFailure ? (state.signInFailure.detail ?? AUTH_MESSAGES.providerRedeemFailed) : providerFailureMessage(params.get('error'));

  const setTab = (value: AuthTab) => {
    const copy = new URLSearchParams(params);
    copy.set('tab', value);
    setParams(copy, { replace: true });
  };
  const tabKeys = useRovingGroup(AUTH_TABS.length, AUTH_TABS.indexOf(tab), (index) => setTab(AUTH_TABS[index]));

  return (
    <div className="auth-page">
      <PageMeta title={tab === 'register' ? 'Inscription' : 'Connexion'} />
      <Link to="/" className="logo auth-logo">
        <Hexagon className="logo-mark" size={22} strokeWidth={2.5} aria-hidden="true" /> bt
      </Link>
      <div className="auth-card card">
        <div className="pill-switch" role="tablist" aria-label="Connexion ou inscription" onKeyDown={tabKeys.onKeyDown}>
          <button type="button" role="tab" aria-selected={tab === 'login'} className={tab === 'login' ? 'active' : ''} onClick={() => setTab('login')} {...tabKeys.item(0)}>
            Connexion
          </button>
          <button type="button" role="tab" aria-selected={tab === 'register'} className={tab === 'register' ? 'active' : ''} onClick={() => setTab('register')} {...tabKeys.item(1)}>
            Inscription
          </button>
        </div>
        <h1>{tab === 'register' ? 'Inscription' : 'Connexion'}</h1>
        {provider && (state.status === 'consuming' || state.status === 'loading') ? <p className="muted">Connexion en cours…</p> : null}
        {recreateLimit ? <p className="alert alert-error" role="alert">{AUTH_MESSAGES.recreateLimit}</p> : null}
        {providerFailed ? <p className="alert alert-error" role="alert" data-testid="provider-error">{failure}</p> : null}
        {params.get('reset_link') === 'sent' ? <p className="alert alert-info">{AUTH_MESSAGES.forgotDone}</p> : null}
        {params.get('reset') === '1' ? <p className="alert alert-info">Mot de passe mis à jour : connecte-toi avec le nouveau.</p> : null}
        <GoogleButton next={next} />
        <div className="divider"><span>ou</span></div>
        {tab === 'register' ? <RegisterForm next={next} /> : <LoginForm next={next} />}
        <p className="auth-toggle">
          {tab === 'register' ? 'Déjà un compte ?' : 'Pas encore de compte ?'}{' '}
          <button type="button" className="link-button" onClick={() => setTab(tab === 'register' ? 'login' : 'register')}>
            {tab === 'register' ? 'Connexion' : 'Inscription'}
          </button>
        </p>
        <LegalLinks />
      </div>
    </div>
  );
}
