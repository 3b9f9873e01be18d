/**
 * What the visitor sees of a key in the address (session/addressKey.ts, docs/web.md "Session"):
 * the question before another account replaces a live session, and the notice of a sign-in by a
 * link, so that a link carrying someone else's key cannot sign a visitor in unseen.
 */
import { useEffect, useRef } from 'react';
import { X } from 'lucide-react';
import { Modal } from '../components/Modal.js';
import { accountLabel } from '../session/addressKey.js';
import { useSession } from '../session/react.js';
import { analytics, session } from '../runtime.js';

export const ADDRESS_KEY_TEXT = {
  switchTitle: 'Ce lien veut te connecter à un autre compte.',
  switchTo: (label: string | null) => (label ? `Compte du lien : ${label}.` : 'Le compte du lien n’a pas pu être lu pour le moment.'),
  current: (label: string | null) => (label ? `Tu es connecté au compte ${label}.` : 'Tu es déjà connecté à ton compte.'),
  advice: 'Si tu ne sais pas d’où vient ce lien, reste sur ton compte.',
  stay: 'Rester sur mon compte',
  switch: 'Changer de compte',
  notice: (label: string | null) => `Connecté au compte ${label ?? 'inconnu'} par un lien. Ce n’est pas toi ?`,
  logout: 'Se déconnecter',
  hide: 'Masquer ce message',
} as const;

/** The question, shown over any page (Escape, the backdrop and the close button all stay). */
export function AccountSwitchDialog() {
  const { offer, user } = useSession();
  const stay = useRef<HTMLButtonElement | null>(null);
  const open = offer !== null;
  // The Modal focuses its panel first (its effect runs before this one): the default choice here.
  useEffect(() => {
    if (open) stay.current?.focus();
  }, [open]);
  if (!offer) return null;
  return (
    <Modal
      title={ADDRESS_KEY_TEXT.switchTitle}
      onClose={() => session.declineOffer()}
      className="account-switch"
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={() => void session.acceptOffer()} data-testid="account-switch-accept">
            {ADDRESS_KEY_TEXT.switch}
          </button>
          <button type="button" ref={stay} className="btn btn-primary" onClick={() => session.declineOffer()} data-testid="account-switch-stay">
            {ADDRESS_KEY_TEXT.stay}
          </button>
        </>
      }
    >
      <p className="user-text" data-testid="account-switch-target">{ADDRESS_KEY_TEXT.switchTo(accountLabel(offer.user))}</p>
      <p className="user-text">{ADDRESS_KEY_TEXT.current(accountLabel(user))}</p>
      <p className="muted small">{ADDRESS_KEY_TEXT.advice}</p>
    </Modal>
  );
}

/** Said once, at the top of the page, until hidden or the session ends. */
export function LinkSignInNotice() {
  const { byLink, status, user } = useSession();
  if (!byLink || status !== 'ready' || !user) return null;
  return (
    <div className="alert alert-info link-notice" role="status" data-testid="link-notice">
      <span className="link-notice-text user-text">{ADDRESS_KEY_TEXT.notice(accountLabel(user))}</span>
      <button
        type="button"
        className="btn btn-small"
        onClick={() => {
          session.logout();
          analytics.reset();
        }}
        data-testid="link-notice-logout"
      >
        {ADDRESS_KEY_TEXT.logout}
      </button>
      <button type="button" className="link-notice-hide" aria-label={ADDRESS_KEY_TEXT.hide} title={ADDRESS_KEY_TEXT.hide} onClick={() => session.dismissLinkNotice()}>
        <X size={16} aria-hidden="true" />
      </button>
    </div>
  );
}
