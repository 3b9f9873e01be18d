import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpError } from '../src/api/errors.js';
import {
  HISTORY_DEFAULT,
  PROFILE_MESSAGES,
  REAUTH_ACTIONS,
  REAUTH_BUTTON,
  REAUTH_RESUMED,
  checkAccountDeletion,
  checkPasswordChange,
  checkPersonalInfo,
  displayName,
  historyRows,
  planLabel,
  profileErrorMessage,
  reauthAction,
  reauthProvider,
  reauthResume,
  reauthReturnPath,
  renewDate,
  resendErrorMessage,
  subscriberAdvantage,
  verificationHint,
  verifiedBanner,
  visibleHistory,
} from '../src/features/profile/profile.js';

const current = { email: 'camille@example.com', fullName: 'Camille Durand', hasPassword: true };

describe('profile forms (docs/product.md §2.5, §2.8)', () => {
  it('personal info sends only what changed; a new e-mail needs a valid address and the current password', () => {
    assert.deepEqual(checkPersonalInfo({ email: 'camille@example.com', fullName: 'Camille Martin', password: '' }, current), { fields: { full_name: 'Camille Martin' } });
    assert.deepEqual(checkPersonalInfo({ email: 'CAMILLE@example.com', fullName: 'Camille Durand', password: '' }, current), { error: PROFILE_MESSAGES.nothingChanged });
    assert.deepEqual(checkPersonalInfo({ email: 'camille.new@example', fullName: 'Camille Durand', password: 'x' }, current), { error: 'Adresse e-mail invalide.' });
    assert.deepEqual(checkPersonalInfo({ email: 'new@example.com', fullName: 'Camille Durand', password: '' }, current), { error: PROFILE_MESSAGES.currentPasswordForEmail });
    assert.deepEqual(checkPersonalInfo({ email: ' new@example.com ', fullName: 'Camille Durand', password: 'secret-123' }, current), { fields: { email: 'new@example.com', password: 'secret-123' } });
    assert.deepEqual(checkPersonalInfo({ email: 'new@example.com', fullName: 'Camille Durand', password: '' }, { ...current, hasPassword: false }), { fields: { email: 'new@example.com' } }, 'a Google account has no password to give');
    assert.deepEqual(checkPersonalInfo({ email: current.email, fullName: 'x'.repeat(101), password: '' }, current), { error: 'Nom complet invalide (100 caractères maximum).' });
  });

  it('password: new one required, 8 characters, confirmed; the current one optional', () => {
    assert.equal(checkPasswordChange({ current: '', next: '', confirm: '' }), 'Nouveau mot de passe obligatoire.');
    assert.equal(checkPasswordChange({ current: 'old', next: 'short', confirm: 'short' }), '8 caractères minimum.');
    assert.equal(checkPasswordChange({ current: 'old', next: 'longenough', confirm: 'longenougH' }), 'Les mots de passe ne correspondent pas.');
    assert.equal(checkPasswordChange({ current: '', next: 'longenough', confirm: 'longenough' }), null);
  });

  it('deleting the account sends the current password as typed; without it, the sentence naming the field; a Google account sends none', () => {
    assert.deepEqual(checkAccountDeletion('', true), { error: 'Mot de passe actuel obligatoire pour supprimer ton compte.' });
    assert.deepEqual(checkAccountDeletion(' secret-123 ', true), { body: { current_password: ' secret-123 ' } }, 'never trimmed');
    assert.deepEqual(checkAccountDeletion('', false), { body: {} }, 'its proof is a recent Google sign-in');
    assert.deepEqual(checkAccountDeletion('typed anyway', false), { body: {} });
    // The server's refusals are shown as they come: the wrong password, or the Google button.
    assert.equal(profileErrorMessage(new HttpError(400, 'Mot de passe actuel incorrect.', { detail: 'Mot de passe actuel incorrect.' })), 'Mot de passe actuel incorrect.');
    const detail = 'Ce compte n’a pas de mot de passe : confirme d’abord ton identité avec Google, puis recommence dans les 10 minutes.';
    assert.equal(reauthProvider(new HttpError(400, detail, { detail, reauth: 'google' })), 'google');
    assert.equal(profileErrorMessage(new HttpError(429, 'Trop de tentatives de connexion pour ce compte. Réessaie dans 4 s.', null)), 'Trop de tentatives de connexion pour ce compte. Réessaie dans 4 s.');
  });

  it('the verified parameter: 1 verified, 0 invalid link, anything else nothing', () => {
    assert.deepEqual(verifiedBanner('1'), { kind: 'ok', text: 'Adresse e-mail vérifiée : tes 2 crédits offerts sont ajoutés.' });
    // A link that granted nothing never announces credits (the server says why in `credits`).
    assert.deepEqual(verifiedBanner('1', 'already'), { kind: 'ok', text: 'Adresse e-mail vérifiée. Tes 2 crédits offerts avaient déjà été ajoutés.' });
    assert.deepEqual(verifiedBanner('1', 'screen'), { kind: 'ok', text: PROFILE_MESSAGES.verifiedOnScreen });
    for (const other of ['', '0', 'none', 'SCREEN']) assert.deepEqual(verifiedBanner('1', other), { kind: 'ok', text: 'Adresse e-mail vérifiée.' }, other);
    assert.deepEqual(verifiedBanner('0', 'already'), { kind: 'error', text: 'Lien invalide ou expiré.' });
    assert.deepEqual(verifiedBanner('0'), { kind: 'error', text: 'Lien invalide ou expiré.' });
    assert.equal(verifiedBanner('yes'), null);
    assert.equal(verifiedBanner(null), null);
  });

  it('failure messages: server detail, Non authentifié, Erreur serveur; resend 409 / 502', () => {
    assert.equal(profileErrorMessage(new HttpError(400, 'Mot de passe actuel incorrect.', null)), 'Mot de passe actuel incorrect.');
    assert.equal(profileErrorMessage(new HttpError(401, 'Clé API invalide ou expirée.', null)), 'Non authentifié');
    assert.equal(profileErrorMessage(new HttpError(500, undefined, null)), 'Erreur serveur');
    assert.equal(profileErrorMessage(new TypeError('Failed to fetch')), 'Erreur serveur');
    assert.equal(resendErrorMessage(new HttpError(409, 'x', null)), 'Adresse déjà vérifiée.');
    assert.equal(resendErrorMessage(new HttpError(502, undefined, null)), "Impossible de générer l'e-mail de vérification.");
    assert.equal(resendErrorMessage(new HttpError(429, undefined, null)), 'HTTP 429');
  });
});

describe('profile summary and purchase history (docs/product.md §2.2, §2.3)', () => {
  it('plans, names and renewal date', () => {
    assert.deepEqual(['free', 'SUB_9', 'SUB_25', undefined].map(planLabel), ['Gratuit', 'Starter', 'Pro', 'Gratuit']);
    assert.equal(displayName({ first_name: 'Ana', last_name: 'Lima' }), 'Ana Lima');
    assert.equal(displayName({ full_name: 'Ana Maria Lima', first_name: 'Ana' }), 'Ana Maria Lima');
    assert.equal(renewDate({ subscription: { renew_date: '2026-02-04T10:00:00.000Z' } }), '04/02/2026');
    assert.equal(renewDate({ subscription: { renew_date: null } }), null);
  });

  it("a subscriber's advantage reads as /pricing gives it, bonus credits on packs, not a price cut", () => {
    assert.equal(subscriberAdvantage({ has_discount: true }), '+10\u00a0% de crédits sur les packs');
    assert.equal(subscriberAdvantage({ has_discount: false }), null);
    assert.equal(subscriberAdvantage(null), null);
  });

  it('lists the ledger entries with label, date, amount, signed credits and reference; 5 then all', () => {
    const entries = Array.from({ length: 7 }, (_, i) => ({ id: 10 - i, type: i % 2 ? 'csvDownload' : 'admin', label: null, offer_id: null, date: `2026-01-1${i}T10:00:00.000Z`, amount: null, credits: i % 2 ? -1 : 5, txid: `ref-${i}` }));
    entries.push({ id: 1, type: 'purchase', label: 'Pack 10', offer_id: 'CREDIT_10', date: '2026-01-01T09:30:00.000Z', amount: 10, credits: 12, txid: 'pay_1' } as never);
    const rows = historyRows({ purchase_history: entries });
    assert.equal(rows.length, 8);
    assert.deepEqual([rows[0].label, rows[0].credits, rows[0].amount], ['Crédits ajoutés par l’équipe', '+5', '—']);
    assert.deepEqual([rows[1].label, rows[1].credits], ['Téléchargement CSV', '-1']);
    assert.deepEqual([rows[7].label, rows[7].amount, rows[7].credits, rows[7].txid, rows[7].date], ['Pack 10', '10,00\u00a0€', '+12', 'pay_1', '01/01/2026 09:30']);
    assert.equal(visibleHistory(rows, false).length, HISTORY_DEFAULT);
    assert.equal(visibleHistory(rows, true).length, 8);
    assert.deepEqual(historyRows({}), []);
  });

  it('an account without a password asked to sign in with Google again: the server’s sentence and a button', () => {
    const detail = 'Ce compte n’a pas de mot de passe : confirme d’abord ton identité avec Google, puis recommence dans les 10 minutes.';
    const refusal = new HttpError(400, detail, { detail, reauth: 'google' });
    assert.equal(reauthProvider(refusal), 'google');
    assert.equal(profileErrorMessage(refusal), detail);
    assert.equal(REAUTH_BUTTON, 'Confirme avec Google');
    // Anything else offers no button.
    assert.equal(reauthProvider(new HttpError(400, 'Mot de passe actuel incorrect.', { detail: 'Mot de passe actuel incorrect.' })), null);
    assert.equal(reauthProvider(new HttpError(400, 'x', { detail: 'x', reauth: 'myspace' })), null);
    assert.equal(reauthProvider(new HttpError(401, 'x', { detail: 'x', reauth: 'google' })), null);
    assert.equal(reauthProvider(new HttpError(400, 'x', null)), null);
    assert.equal(reauthProvider(new TypeError('Failed to fetch')), null);
  });

  it('the Google button comes back to the profile saying which action asked, read back from a fixed list', () => {
    assert.deepEqual([...REAUTH_ACTIONS], ['delete', 'password', 'email']);
    assert.equal(reauthReturnPath('delete'), '/profile?reauth=delete');
    assert.equal(reauthReturnPath('password'), '/profile?reauth=password');
    assert.equal(reauthReturnPath('email'), '/profile?reauth=email');
    for (const action of REAUTH_ACTIONS) {
      assert.equal(reauthAction(new URL(reauthReturnPath(action), 'http://bt.invalid').searchParams.get('reauth')), action);
    }
    // Anything else is ignored: never shown, never a dialog.
    for (const other of [null, undefined, '', 'DELETE', ' delete', 'delete ', 'unsubscribe', 'logout', 'toString', '__proto__', '<img src=x onerror=alert(1)>', 'delete,password']) {
      assert.equal(reauthAction(other), null, String(other));
    }
  });

  it('the return resumes the action with a French note, for an account without a password only', () => {
    assert.deepEqual(REAUTH_RESUMED, {
      delete: 'Identité confirmée avec Google : tu peux maintenant supprimer ton compte.',
      password: 'Identité confirmée avec Google : tu peux maintenant choisir ton mot de passe.',
      email: 'Identité confirmée avec Google : tu peux maintenant changer ton adresse e-mail.',
    });
    const google = { email: 'camille@example.com', has_password: false };
    assert.equal(reauthResume('delete', google), 'delete');
    assert.equal(reauthResume('password', google), 'password');
    assert.equal(reauthResume('email', google), 'email');
    assert.equal(reauthResume('unknown', google), null);
    assert.equal(reauthResume(null, google), null);
    // The server never asks an account with a password (or one whose profile does not say): no note claiming a Google sign-in.
    assert.equal(reauthResume('delete', { has_password: true }), null);
    assert.equal(reauthResume('delete', {}), null);
    assert.equal(reauthResume('delete', null), null);
  });
});

describe('verification card', () => {
  it('promises the sign-up credits only while the server says they are still to come', () => {
    assert.equal(verificationHint({ signup_credits_pending: true }), 'Vérifie ton adresse pour débloquer tes 2 crédits offerts.');
    // A verified account that changed its address had them already (it read the promise again).
    assert.equal(verificationHint({ signup_credits_pending: false }), PROFILE_MESSAGES.verifyNewAddress);
    assert.doesNotMatch(PROFILE_MESSAGES.verifyNewAddress, /débloquer/);
    // A server that does not say (an older one during an update): the promise, as before.
    assert.equal(verificationHint({}), PROFILE_MESSAGES.verifyForCredits);
  });
});
