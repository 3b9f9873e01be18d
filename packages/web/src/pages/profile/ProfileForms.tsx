import { useEffect, useId, useRef, useState } from 'react';
import type { WorkAreaCalls } from '../../api/calls.js';
import { Modal } from '../../components/Modal.js';
import {
  PROFILE_MESSAGES,
  REAUTH_BUTTON,
  REAUTH_RESUMED,
  checkAccountDeletion,
  checkPasswordChange,
  checkPersonalInfo,
  displayName,
  profileErrorMessage,
  reauthProvider,
  reauthReturnPath,
  type ReauthAction,
} from '../../features/profile/profile.js';
import { session, toasts } from '../../runtime.js';
import { leaveForGoogleSignIn } from '../../session/googleSignIn.js';
import type { UserProfile } from '../../session/types.js';

type Outcome = { error: boolean; text: string; link?: string; reauth?: ReauthAction } | null;

/**
 * A failure as the form shows it: with a 'Confirme avec Google' button when the server asks for
 * a new Google sign-in, back to the profile with the action that asked (reauthReturnPath).
 */
function failure(error: unknown, action: ReauthAction): Outcome {
  return { error: true, text: profileErrorMessage(error), reauth: reauthProvider(error) === 'google' ? action : undefined };
}

/** The note of a resumed action (REAUTH_RESUMED), where the action is. */
function ResumedNote({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p className="alert alert-info small" role="status" data-testid="reauth-note">
      {text}
    </p>
  );
}

/**
 * Back from the Google sign-in that `action` asked for (ProfilePage's `resume`): the note, and
 * focus on the field where the user starts again. The note goes with the next submission.
 */
function useResumed(action: ReauthAction, resume: ReauthAction | null | undefined, field: React.RefObject<HTMLInputElement | null>) {
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    if (resume !== action) return;
    setNote(REAUTH_RESUMED[action]);
    field.current?.focus();
  }, [resume, action, field]);
  return [note, setNote] as const;
}

function OutcomeLine({ outcome, testId }: { outcome: Outcome; testId: string }) {
  if (!outcome) return null;
  return (
    <p className={`small ${outcome.error ? 'error-text' : 'ok-text'}`} role={outcome.error ? 'alert' : 'status'} data-testid={testId}>
      {outcome.text}
      {outcome.link ? (
        <>
          {' '}
          <a href={outcome.link}>Lien de vérification</a>
        </>
      ) : null}
      {outcome.reauth ? (
        <>
          {' '}
          <button type="button" className="btn btn-google" onClick={() => leaveForGoogleSignIn(reauthReturnPath(outcome.reauth!))} data-testid={`${testId}-reauth`}>
            {REAUTH_BUTTON}
          </button>
        </>
      ) : null}
    </p>
  );
}

/**
 * Personal info (docs/product.md §2.2): e-mail and full name; a new e-mail needs the current password.
 * `resume` 'email': back from the Google sign-in the address change asked for, the e-mail field has focus.
 */
export function PersonalInfoForm({ user, work, resume }: { user: UserProfile; work: WorkAreaCalls; resume?: ReauthAction | null }) {
  const currentEmail = String(user.email ?? '');
  const currentName = displayName(user);
  const hasPassword = user.has_password !== false;
  const [email, setEmail] = useState(currentEmail);
  const [fullName, setFullName] = useState(currentName);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const emailField = useRef<HTMLInputElement | null>(null);
  const [note, setNote] = useResumed('email', resume, emailField);
  const emailChanged = email.trim().toLowerCase() !== currentEmail.toLowerCase();

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const checked = checkPersonalInfo({ email, fullName, password }, { email: currentEmail, fullName: currentName, hasPassword });
    if ('error' in checked) {
      setOutcome({ error: true, text: checked.error });
      return;
    }
    setBusy(true);
    setOutcome(null);
    setNote(null);
    try {
      const answer = await work.profileUpdate(() => {
        const form = new FormData();
        for (const [name, value] of Object.entries(checked.fields)) form.append(name, value);
        return form;
      });
      if (answer.user) session.patchUser(answer.user as UserProfile);
      else await session.refresh();
      setPassword('');
      // A confirmation is a toast; a verification link to follow stays on the form.
      if (answer.verifyUrl) setOutcome({ error: false, text: answer.message || PROFILE_MESSAGES.profileSaved, link: answer.verifyUrl });
      else toasts.show(answer.message || PROFILE_MESSAGES.profileSaved);
    } catch (error) {
      setOutcome(failure(error, 'email'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card profile-card" onSubmit={submit} data-testid="personal-form" noValidate>
      <h2>Informations personnelles</h2>
      <ResumedNote text={note} />
      <label>
        E-mail
        <input ref={emailField} type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" />
      </label>
      <label>
        Nom complet
        <input type="text" value={fullName} onChange={(e) => setFullName(e.target.value)} autoComplete="name" maxLength={120} />
      </label>
      {emailChanged && hasPassword ? (
        <label>
          Mot de passe actuel
          <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" />
        </label>
      ) : null}
      {emailChanged ? <p className="muted small">La nouvelle adresse devra être vérifiée.</p> : null}
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? 'Enregistrement…' : 'Enregistrer'}
      </button>
      <OutcomeLine outcome={outcome} testId="personal-outcome" />
    </form>
  );
}

/**
 * Password change (docs/product.md §2.5): new password required (8 characters), the current one optional.
 * `resume` 'password': back from the Google sign-in that setting a password asked for, the new password has focus.
 */
export function PasswordForm({ work, resume }: { work: WorkAreaCalls; resume?: ReauthAction | null }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const nextField = useRef<HTMLInputElement | null>(null);
  const [note, setNote] = useResumed('password', resume, nextField);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const problem = checkPasswordChange({ current, next, confirm });
    if (problem) {
      setOutcome({ error: true, text: problem });
      return;
    }
    setBusy(true);
    setOutcome(null);
    setNote(null);
    try {
      const answer = await work.setPassword(current, next);
      setCurrent('');
      setNext('');
      setConfirm('');
      toasts.show(answer.message || PROFILE_MESSAGES.passwordSaved);
    } catch (error) {
      setOutcome(failure(error, 'password'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card profile-card" onSubmit={submit} data-testid="password-form" noValidate>
      <h2>Mot de passe</h2>
      <ResumedNote text={note} />
      <label>
        Mot de passe actuel
        <input type="password" value={current} onChange={(e) => setCurrent(e.target.value)} autoComplete="current-password" />
      </label>
      <label>
        Nouveau mot de passe
        <input ref={nextField} type="password" value={next} onChange={(e) => setNext(e.target.value)} autoComplete="new-password" />
      </label>
      <label>
        Confirmer le nouveau mot de passe
        <input type="password" value={confirm} onChange={(e) => setConfirm(e.target.value)} autoComplete="new-password" />
      </label>
      <p className="muted small">8 caractères minimum. Tes autres sessions seront déconnectées.</p>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? 'Enregistrement…' : 'Changer le mot de passe'}
      </button>
      <OutcomeLine outcome={outcome} testId="password-outcome" />
    </form>
  );
}

/**
 * The account's deletion, confirmed with the owner's proof (docs/api.md, delete_account): the
 * current password, or for an account without one a Google sign-in of the last 10 minutes (the
 * server's refusal comes with a 'Confirme avec Google' button). A refusal shows the server's
 * sentence in the dialog; nothing is deleted until the server accepts. `resumed`: the dialog
 * reopened on the return from that Google sign-in, with its note; the user still confirms.
 */
export function DeleteAccountDialog({ user, work, onDeleted, onClose, resumed = false }: { user: UserProfile; work: WorkAreaCalls; onDeleted: () => void; onClose: () => void; resumed?: boolean }) {
  const hasPassword = user.has_password !== false;
  const formId = useId();
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [note, setNote] = useState<string | null>(resumed ? REAUTH_RESUMED.delete : null);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const checked = checkAccountDeletion(password, hasPassword);
    if ('error' in checked) {
      setOutcome({ error: true, text: checked.error });
      return;
    }
    setBusy(true);
    setOutcome(null);
    setNote(null);
    try {
      await work.deleteAccount(checked.body);
      onDeleted();
    } catch (error) {
      setOutcome(failure(error, 'delete'));
      setBusy(false);
    }
  }

  return (
    <Modal
      title="Supprimer ton compte ?"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Annuler
          </button>
          <button type="submit" form={formId} className="btn btn-danger" disabled={busy} data-testid="confirm-action">
            {busy ? 'Suppression…' : 'Supprimer mon compte'}
          </button>
        </>
      }
    >
      <form id={formId} className="delete-form" onSubmit={submit} data-testid="delete-form" noValidate>
        <ResumedNote text={note} />
        <p className="user-text">Ton compte, tes backtests, tes stratégies et tes crédits seront supprimés. Cette action est irréversible.</p>
        {hasPassword ? (
          <label>
            Mot de passe actuel
            <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" data-testid="delete-password" />
          </label>
        ) : (
          <p className="muted small">Ton compte n’a pas de mot de passe : la suppression demande une connexion avec Google de moins de 10 minutes.</p>
        )}
        <OutcomeLine outcome={outcome} testId="delete-outcome" />
      </form>
    </Modal>
  );
}
