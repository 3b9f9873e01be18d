import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AUTH_MESSAGES, googleSignIn, isEmail, providerFailureMessage, registrationSucceeded, tabFromQuery, validateLogin, validateNewPassword, validateRegister } from '../src/pages/auth/authForms.js';
import { SUPPORT_MESSAGES, SUPPORT_TABS, supportFailureMessage, supportPayload, validateSupport } from '../src/pages/support/support.js';
import { HttpError, NetworkError } from '../src/api/errors.js';

describe('login and registration (docs/product.md §1.5, §1.8)', () => {
  it('trims the identifier and requires both fields', () => {
    assert.deepEqual(validateLogin({ identifier: '   ana@x.fr', password: 'p' }), { ok: true, identifier: 'ana@x.fr', password: 'p' });
    assert.deepEqual(validateLogin({ identifier: '  ', password: 'p' }), { ok: false, error: AUTH_MESSAGES.identifierRequired });
    assert.deepEqual(validateLogin({ identifier: 'ana', password: '' }), { ok: false, error: AUTH_MESSAGES.passwordRequired });
  });

  it('requires the five registration fields and an e-mail without spaces', () => {
    const good = { first_name: 'Ana', last_name: 'Lima', email: 'ana@x.fr', username: 'ana', password: 'secret123' };
    assert.deepEqual(validateRegister(good), { ok: true, payload: good });
    assert.deepEqual(validateRegister({ ...good, username: ' ' }), { ok: false, error: AUTH_MESSAGES.required });
    assert.deepEqual(validateRegister({ ...good, email: 'ana @x.fr' }), { ok: false, error: AUTH_MESSAGES.invalidEmail });
    assert.ok(isEmail('a.b+c@d.co') && !isEmail('a@b') && !isEmail('a b@c.d'));
    assert.ok(registrationSucceeded({ status: 'success' }) && !registrationSucceeded({ status: 'error', token: 't' }) && registrationSucceeded({ token: 't' }));
    assert.equal(tabFromQuery('register'), 'register');
    assert.equal(tabFromQuery('anything'), 'login');
  });

  it('checks the new password: 8 characters, confirmation equal', () => {
    assert.equal(validateNewPassword('short', 'short'), '8 caractères minimum.');
    assert.equal(validateNewPassword('longenough', 'different'), 'Les mots de passe ne correspondent pas.');
    assert.equal(validateNewPassword('longenough', 'longenough'), null);
    assert.equal(AUTH_MESSAGES.recreateLimit, 'Tu as déjà recréé un compte 3 fois avec cette adresse. Connecte-toi avec ton compte existant ou utilise un autre e-mail.');
  });
});

describe('Google sign-in button (docs/web.md "Public pages")', () => {
  it('follows the sign_in list of GET /api/health; without a list nothing is known', () => {
    assert.equal(googleSignIn({ status: 'ok', sign_in: ['google'] }), 'available');
    assert.equal(googleSignIn({ status: 'ok', sign_in: [] }), 'unavailable');
    assert.equal(googleSignIn({ status: 'ok' }), 'unknown', 'an older server: the button stays');
    assert.equal(googleSignIn({ nonJson: true, text: '<html>' }), 'unknown');
    assert.equal(googleSignIn(null), 'unknown');
    assert.equal(AUTH_MESSAGES.googleUnavailable, 'La connexion avec Google n’est pas disponible sur ce serveur.');
  });
});

describe('return from Google without a session (docs/api.md, the callback\'s error codes)', () => {
  it('says why for each code the server sends; anything else is the generic failure', () => {
    assert.equal(providerFailureMessage('email_unverified'), 'Un compte existe déjà avec cette adresse, mais Google ne l’a pas vérifiée : connecte-toi avec ton mot de passe.');
    assert.equal(providerFailureMessage('access_denied'), 'Connexion avec Google annulée.');
    assert.match(providerFailureMessage('email_missing'), /^Google n’a pas transmis ton adresse e-mail/);
    assert.match(providerFailureMessage('invalid_state'), /Réessaie\.$/);
    assert.match(providerFailureMessage('identity_conflict'), /^Le compte qui a cette adresse est lié à un autre compte Google/);
    assert.equal(providerFailureMessage('admin_password'), 'Le compte administrateur se connecte avec son mot de passe, pas avec Google.');
    for (const other of ['oidc_failed', null, '', 'constructor', '__proto__']) assert.equal(providerFailureMessage(other), 'Connexion avec Google impossible. Réessaie.');
  });
});

describe('support form (docs/product.md §1.3, §1.5)', () => {
  const fields = { lastName: 'Lima', firstName: 'Ana', email: 'ana@x.fr', message: 'Bonjour' };
  it('has the two tabs and validates every field and the @', () => {
    assert.deepEqual(SUPPORT_TABS.map((t) => [t.id, t.label]), [['contact', 'Assistance & questions'], ['feedback', 'Améliorations & bugs']]);
    assert.equal(validateSupport(fields), null);
    assert.equal(validateSupport({ ...fields, message: '  ' }), SUPPORT_MESSAGES.required);
    assert.equal(validateSupport({ ...fields, email: 'ana.x.fr' }), 'Merci d’entrer une adresse e-mail valide (doit contenir un @).');
  });

  it('sends type, names, e-mail, message and meta{path, ts}', () => {
    assert.deepEqual(supportPayload('feedback', { ...fields, message: ' Idée ' }, '/support', 1700000000000), {
      type: 'feedback',
      firstName: 'Ana',
      lastName: 'Lima',
      email: 'ana@x.fr',
      message: 'Idée',
      meta: { path: '/support', ts: 1700000000000 },
    });
  });

  it('a failed send shows the server’s sentence without the HTTP prefix, else the product’s words', () => {
    const limited = new HttpError(429, 'Trop de requêtes. Réessaie dans 60 s.', { detail: 'Trop de requêtes. Réessaie dans 60 s.' });
    assert.equal(supportFailureMessage(limited), 'Trop de requêtes. Réessaie dans 60 s.');
    assert.equal(supportFailureMessage(new HttpError(500, undefined, undefined)), 'Désolé, l’envoi a échoué. Réessayez.');
    assert.equal(supportFailureMessage(new NetworkError(new TypeError('Failed to fetch'))), 'Erreur réseau.');
    assert.equal(supportFailureMessage(new Error('boom')), 'Désolé, l’envoi a échoué. Réessayez.');
  });
});
