import { useState } from 'react';
import { Link } from 'react-router-dom';
import { CircleCheck, FileDown } from 'lucide-react';
import { calls, payments, storage } from '../../runtime.js';
import { Modal } from '../../components/Modal.js';
import { DownloadLink } from '../../components/DownloadLink.js';
import {
  AVATAR_COLOR_STORAGE,
  avatarColorStorageKey,
  avatarLook,
  normalizeHexColor,
  saveAvatarColor,
  storedAvatarColor,
} from '../../shell/avatar.js';
import { HISTORY_DEFAULT, PROFILE_MESSAGES, historyRows, resendErrorMessage, verificationHint, visibleHistory } from '../../features/profile/profile.js';
import { creditNoteDetail, creditNoteRows, type CreditNoteRow } from '../../features/profile/creditNotes.js';
import { useAnswerOnce } from '../../lib/useAnswerOnce.js';
import type { UserProfile } from '../../session/types.js';
import { ScrollX } from '../../components/ScrollX.js';
import { AVATAR_CHOICES, avatarColorName } from '../../features/profile/avatarColors.js';
import { useRovingGroup } from '../../lib/useRovingGroup.js';


/** Tells the top bar of this tab (other tabs get the storage event). */
function announceAvatarColor() {
  window.dispatchEvent(new Event('bt:avatar-color'));
}

export function AvatarPicker({ user, apiKey }: { user: UserProfile; apiKey: string | null }) {
  const [chosen, setChosen] = useState(() => storedAvatarColor(storage, apiKey));
  const look = avatarLook(user, chosen);

  const choose = (color: string) => {
    setChosen(saveAvatarColor(storage, apiKey, color));
    announceAvatarColor();
  };
  const chosenIndex = chosen ? AVATAR_CHOICES.indexOf(chosen) : -1;
  // A radio group: one tab stop, the arrows (and Home, End) move and choose (docs/web.md "Keyboard in groups").
  const swatchKeys = useRovingGroup(AVATAR_CHOICES.length, chosenIndex, (index) => choose(AVATAR_CHOICES[index]), 'both');
  const reset = () => {
    storage.removeItem(avatarColorStorageKey(apiKey));
    storage.removeItem(AVATAR_COLOR_STORAGE);
    setChosen(null);
    announceAvatarColor();
  };

  return (
    <section className="card profile-card" data-testid="avatar-picker">
      <h2>Avatar</h2>
      <div className="avatar-preview-row">
        <span className="avatar avatar-large" style={{ background: look.background, color: look.color }} data-testid="avatar-preview">
          {look.initials}
        </span>
        <span className="muted small" data-testid="avatar-chosen">{chosen ? `Couleur choisie : ${avatarColorName(chosen)}` : 'Couleur automatique (d’après ton e-mail)'}</span>
      </div>
      <div className="swatches" role="radiogroup" aria-label="Couleur de l’avatar" onKeyDown={swatchKeys.onKeyDown}>
        {AVATAR_CHOICES.map((color, index) => (
          <button
            key={color}
            {...swatchKeys.item(index)}
            type="button"
            role="radio"
            aria-checked={chosen === color}
            aria-label={avatarColorName(color)}
            title={avatarColorName(color)}
            className={`swatch-button${chosen === color ? ' active' : ''}`}
            style={{ background: color }}
            onClick={() => choose(color)}
            data-color={color}
          />
        ))}
      </div>
      <div className="row-actions">
        <label className="inline-label">
          Autre couleur
          <input type="color" value={chosen ?? look.background} onChange={(e) => normalizeHexColor(e.target.value) && choose(e.target.value)} data-testid="avatar-custom" />
        </label>
        {chosen ? (
          <button type="button" className="btn btn-ghost btn-small" onClick={reset}>
            Couleur automatique
          </button>
        ) : null}
      </div>
    </section>
  );
}

export function VerificationCard({ user }: { user: UserProfile }) {
  const [state, setState] = useState<{ busy: boolean; text: string | null; kind: 'ok' | 'warn' | 'error'; link: string | null }>({ busy: false, text: null, kind: 'ok', link: null });
  const verified = user.email_verified === true;

  async function resend() {
    setState({ busy: true, text: null, kind: 'ok', link: null });
    try {
      const answer = await calls.resendVerification();
      if (answer?.emailed === false && answer.verifyUrl) {
        // No mail server: the link itself is shown, with the server's warning.
        setState({ busy: false, text: answer.message || PROFILE_MESSAGES.verificationSent, kind: 'warn', link: answer.verifyUrl });
      } else setState({ busy: false, text: PROFILE_MESSAGES.verificationSent, kind: 'ok', link: null });
    } catch (error) {
      setState({ busy: false, text: resendErrorMessage(error), kind: 'error', link: null });
    }
  }

  return (
    <section className="card profile-card" data-testid="verification-card">
      <h2>Vérification de l’e-mail</h2>
      {verified ? (
        <p className="ok-text user-text" data-testid="email-verified">
          <CircleCheck size={16} aria-hidden="true" className="inline-icon" /> Adresse vérifiée : {String(user.email ?? '')}
        </p>
      ) : (
        <>
          <p className="muted" data-testid="verification-hint">{verificationHint(user)}</p>
          <button type="button" className="btn btn-primary btn-small" onClick={resend} disabled={state.busy} data-testid="resend-verification">
            Renvoyer l’e-mail de vérification
          </button>
        </>
      )}
      {state.text ? (
        <p className={`alert ${state.kind === 'error' ? 'alert-error' : state.kind === 'warn' ? 'alert-warn' : 'alert-info'} small`} role={state.kind === 'error' ? 'alert' : 'status'} data-testid="verification-outcome">
          {state.text}
          {state.link ? (
            <>
              {' '}
              <a href={state.link}>Lien de vérification</a>
            </>
          ) : null}
        </p>
      ) : null}
    </section>
  );
}

export function SupportCard() {
  return (
    <section className="card profile-card" data-testid="support-card">
      <h2>Support</h2>
      <p className="muted">Une question, un bug, une idée ? L’équipe répond 24/7.</p>
      <Link className="btn btn-small" to="/support/support">
        Contacter le support
      </Link>
    </section>
  );
}

export function PurchaseHistory({ user }: { user: UserProfile }) {
  const [showAll, setShowAll] = useState(false);
  const rows = historyRows(user);
  const shown = visibleHistory(rows, showAll);
  // Asked once the card shows; none when the call fails (docs/web.md "Comparator, CSV shop and profile").
  const creditNotes = useAnswerOnce(payments.invoices, creditNoteRows, [] as CreditNoteRow[]);
  return (
    <section className="card profile-card profile-history" data-testid="purchase-history">
      <h2>Historique des achats et crédits</h2>
      {rows.length === 0 ? (
        <p className="empty-state">Aucun achat pour l’instant.</p>
      ) : (
        <ScrollX className="sheet-body" label="Historique des achats et crédits">
          <table className="sheet-table">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Libellé</th>
                <th scope="col">Montant</th>
                <th scope="col">Crédits</th>
                <th scope="col">Référence</th>
                <th scope="col">Facture</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((row) => (
                <tr key={row.key} data-testid="history-row">
                  <td>{row.date}</td>
                  <td>{row.label}</td>
                  <td>{row.amount}</td>
                  <td>{row.credits}</td>
                  <td className="mono small">{row.txid || '—'}</td>
                  <td>
                    {row.invoice ? (
                      // Fetched on click, saved only when it is the PDF: a refusal is a French toast.
                      <DownloadLink className="invoice-link" href={payments.invoiceUrl(row.invoice.path)} file={`facture-${row.invoice.label}.pdf`} data-testid="history-invoice">
                        <FileDown size={15} aria-hidden="true" />
                        {row.invoice.label}
                      </DownloadLink>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollX>
      )}
      {rows.length > HISTORY_DEFAULT ? (
        <button type="button" className="btn btn-ghost btn-small" onClick={() => setShowAll((v) => !v)} data-testid="history-toggle">
          {showAll ? 'Afficher moins' : `Tout afficher (${rows.length})`}
        </button>
      ) : null}
      {creditNotes.length > 0 ? (
        <div className="credit-notes" data-testid="credit-notes">
          <h3>Factures d’avoir</h3>
          <ul>
            {creditNotes.map((note) => {
              const detail = creditNoteDetail(note);
              return (
              <li key={note.key} data-testid="credit-note-row">
                <DownloadLink className="invoice-link" href={payments.invoiceUrl(note.path)} file={`avoir-${note.label}.pdf`} data-testid="credit-note-link">
                  <FileDown size={15} aria-hidden="true" />
                  Avoir {note.label}
                </DownloadLink>
                {detail ? ` — ${detail}` : null}
              </li>
              );
            })}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
