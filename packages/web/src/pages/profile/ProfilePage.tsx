import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { PageMeta } from '../../components/PageMeta.js';
import {
  PROFILE_MESSAGES,
  displayName,
  isSubscriber,
  planLabel,
  profileErrorMessage,
  reauthResume,
  renewDate,
  subscriberAdvantage,
  verifiedBanner,
  type ReauthAction,
} from '../../features/profile/profile.js';
import { analytics, calls, session, toasts, work } from '../../runtime.js';
import { useSession } from '../../session/react.js';
import type { UserProfile } from '../../session/types.js';
import { creditsBadgeText } from '../../shell/credits.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { AvatarPicker, PurchaseHistory, SupportCard, VerificationCard } from './ProfileCards.js';
import { DeleteAccountDialog, PasswordForm, PersonalInfoForm } from './ProfileForms.js';
import './profile.css';


type Action = 'logout' | 'unsubscribe' | 'delete';

// The deletion has its own dialog, which asks for the owner's proof (DeleteAccountDialog).
const CONFIRMS: Record<Exclude<Action, 'delete'>, { title: string; text: string; label: string; danger?: boolean }> = {
  logout: { title: 'Se déconnecter ?', text: 'Tu devras te reconnecter pour accéder à ton dashboard.', label: 'Se déconnecter' },
  unsubscribe: {
    title: 'Résilier l’abonnement ?',
    text: 'Ton abonnement reste actif jusqu’à sa date de renouvellement, puis ne sera pas renouvelé. Tes crédits restent acquis.',
    label: 'Résilier',
    danger: true,
  },
};

function AccountSummary({ user, onAction }: { user: UserProfile; onAction: (action: Action) => void }) {
  const renew = renewDate(user);
  const subscriber = isSubscriber(user.plan);
  return (
    <section className="card profile-card" data-testid="account-summary">
      <h2>Mon compte</h2>
      <dl className="summary-list">
        <dt>Nom</dt>
        <dd data-testid="summary-name">{displayName(user) || '—'}</dd>
        <dt>E-mail</dt>
        <dd data-testid="summary-email">{String(user.email ?? '—')}</dd>
        <dt>Formule</dt>
        <dd data-testid="summary-plan">
          {planLabel(user.plan)}
          {subscriberAdvantage(user) ? <span className="badge badge-active">{subscriberAdvantage(user)}</span> : null}
        </dd>
        {subscriber && renew ? (
          <>
            <dt>Renouvellement</dt>
            <dd>{renew}</dd>
          </>
        ) : null}
        <dt>Crédits</dt>
        <dd data-testid="summary-credits">{creditsBadgeText(user)}</dd>
        <dt>E-mail vérifié</dt>
        <dd>{user.email_verified ? 'Oui' : 'Non'}</dd>
      </dl>
      <div className="row-actions quick-actions" data-testid="quick-actions">
        <button type="button" className="btn btn-small" onClick={() => onAction('logout')} data-testid="action-logout">
          Se déconnecter
        </button>
        <button type="button" className="btn btn-small" onClick={() => onAction('unsubscribe')} disabled={!subscriber} title={subscriber ? undefined : 'Aucun abonnement actif'} data-testid="action-unsubscribe">
          Se désabonner
        </button>
        <button type="button" className="btn btn-small btn-danger" onClick={() => onAction('delete')} data-testid="action-delete">
          Supprimer mon compte
        </button>
      </div>
    </section>
  );
}

export default function ProfilePage() {
  const { user, key } = useSession();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const banner = verifiedBanner(params.get('verified'), params.get('credits'));
  // `reauth`: back from the Google sign-in an action asked for (ProfileForms' 'Confirme avec Google').
  const reauthAsked = params.getAll('reauth');
  const reauthParam = reauthAsked.length === 1 ? reauthAsked[0] : null;
  const hasReauth = reauthAsked.length > 0;
  const [resumed, setResumed] = useState<ReauthAction | null>(null);
  const [loadError, setLoadError] = useState(false);
  const [action, setAction] = useState<Action | null>(null);
  const [actionState, setActionState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  // null: stay signed in on leaving; else whether the server must still end the key (not after a
  // deletion, which ended it).
  const signOutOnLeave = useRef<{ revoke: boolean } | null>(null);

  // Signing out while this guarded page is still shown would send the guard to /login: the
  // session ends once the page has left (navigation is a transition, the session change is not).
  useEffect(
    () => () => {
      if (!signOutOnLeave.current) return;
      session.logout(signOutOnLeave.current);
      analytics.reset();
    },
    [],
  );
  const leave = (revoke = true) => {
    signOutOnLeave.current = { revoke };
    navigate('/home', { replace: true });
  };

  // The page re-reads the profile: verification, purchases and credits may have changed elsewhere.
  useEffect(() => {
    if (!key) return;
    let live = true;
    calls.me(key).then(
      (fresh) => live && session.patchUser(fresh),
      () => live && setLoadError(true),
    );
    return () => {
      live = false;
    };
  }, [key]);

  // The action that asked reopens (the deletion dialog) or gets focus (its form) with a note; it is
  // never sent again by itself. Then the parameter leaves the address (a reload resumes nothing).
  // Unknown values, and accounts with a password (the server never asks them), resume nothing.
  useEffect(() => {
    if (!hasReauth || !user) return;
    const action = reauthResume(reauthParam, user);
    if (action) {
      setResumed(action);
      if (action === 'delete') {
        setActionState({ busy: false, error: null });
        setAction('delete');
      }
    }
    setParams(
      (current) => {
        const copy = new URLSearchParams(current);
        copy.delete('reauth');
        return copy;
      },
      { replace: true },
    );
  }, [hasReauth, reauthParam, user, setParams]);

  async function confirm() {
    if (!action || action === 'delete') return;
    if (action === 'logout') {
      leave();
      return;
    }
    setActionState({ busy: true, error: null });
    try {
      const answer = await work.unsubscribe();
      await session.refresh();
      toasts.show(answer.message || 'Abonnement résilié.');
      setAction(null);
      setActionState({ busy: false, error: null });
    } catch (error) {
      setActionState({ busy: false, error: profileErrorMessage(error) });
    }
  }

  if (!user) {
    return (
      <section className="profile-page">
        <PageMeta title="Mon profil" noindex />
        <h1>Mon profil</h1>
        <p className={loadError ? 'alert alert-error' : 'empty-state'} role={loadError ? 'alert' : undefined}>
          {loadError ? PROFILE_MESSAGES.loadError : 'Chargement…'}
        </p>
      </section>
    );
  }

  return (
    <section className="profile-page">
      <PageMeta title="Mon profil" noindex />
      <header className="page-head">
        <h1>Mon profil</h1>
        <p className="muted">Compte, sécurité, vérification de l’e-mail et historique d’achats.</p>
      </header>
      {banner ? (
        <p className={`alert ${banner.kind === 'ok' ? 'alert-info' : 'alert-error'}`} role={banner.kind === 'ok' ? 'status' : 'alert'} data-testid="verified-banner">
          {banner.text}
        </p>
      ) : null}
      {loadError ? (
        <p className="alert alert-error" role="alert">
          {PROFILE_MESSAGES.loadError}
        </p>
      ) : null}
      <div className="profile-grid">
        <AccountSummary user={user} onAction={(a) => { setActionState({ busy: false, error: null }); setAction(a); }} />
        <AvatarPicker user={user} apiKey={key} />
        <PersonalInfoForm key={String(user.id ?? '')} user={user} work={work} resume={resumed} />
        <PasswordForm work={work} resume={resumed} />
        <VerificationCard user={user} />
        <SupportCard />
        <PurchaseHistory user={user} />
      </div>
      {action === 'delete' ? (
        <DeleteAccountDialog
          user={user}
          work={work}
          resumed={resumed === 'delete'}
          onDeleted={() => leave(false)}
          onClose={() => {
            setAction(null);
            setResumed(null);
          }}
        />
      ) : null}
      {action && action !== 'delete' ? (
        <ConfirmDialog
          title={CONFIRMS[action].title}
          text={CONFIRMS[action].text}
          confirmLabel={CONFIRMS[action].label}
          danger={CONFIRMS[action].danger}
          busy={actionState.busy}
          error={actionState.error}
          onConfirm={() => void confirm()}
          onClose={() => setAction(null)}
        />
      ) : null}
    </section>
  );
}
