import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loginUrlFor } from '../src/api/authRedirect.js';
import { REAUTH_ACTIONS, reauthAction, reauthReturnPath } from '../src/features/profile/profile.js';
import { DEFAULT_NEXT, isAuthPage, safeNext } from '../src/session/next.js';

describe('next parameter (docs/product.md §1.5)', () => {
  it('keeps paths of this site, with their query and hash', () => {
    assert.equal(safeNext('/dashboard'), '/dashboard');
    assert.equal(safeNext('/backtest?symbol=EURUSD#top'), '/backtest?symbol=EURUSD#top');
    assert.equal(safeNext('  /profile '), '/profile');
  });

  it('falls back to /home for anything else', () => {
    for (const bad of [null, undefined, '', '   ', 'dashboard', 'http://evil.example/', 'https://evil.example/x', 'HTTPS://evil.example', '//evil.example', '/\\evil.example', 'javascript:alert(1)', '/\u0000x']) {
      assert.equal(safeNext(bad), DEFAULT_NEXT, String(bad));
    }
    assert.equal(DEFAULT_NEXT, '/home');
  });

  it('a sign-in, sign-up or password page is not a place to land after signing in: /home', () => {
    for (const auth of ['/login', '/login?tab=register&next=%2Fdashboard', '/Login/', '/./login', '/%6Cogin', '/auth', '/register', '/forgot-password', '/reset-password/abc123', '/resetpassword/forgot-password', '/resetpassword/reset-password/tok', '/login#x']) {
      assert.equal(safeNext(auth), DEFAULT_NEXT, auth);
      assert.equal(isAuthPage(auth), true, auth);
    }
    // Pages whose names only start like one, and the ordinary pages, are kept.
    for (const page of ['/loginhelp', '/profile', '/backtest?next=/login', '/a-savoir/strategies#login', '/home']) assert.equal(safeNext(page), page, page);
  });

  it('a guard sends to /login?next={path, query and hash}, which safeNext reads back unchanged', () => {
    const url = loginUrlFor({ pathname: '/comparateur', search: '?ids=1,2', hash: '#chart' });
    assert.equal(url, '/login?next=%2Fcomparateur%3Fids%3D1%2C2%23chart');
    const next = new URLSearchParams(url.split('?')[1]).get('next');
    assert.equal(safeNext(next), '/comparateur?ids=1,2#chart');
  });

  it('the Google re-authentication comes back through /login?provider=google with its reauth parameter intact', () => {
    for (const action of REAUTH_ACTIONS) {
      const path = reauthReturnPath(action);
      // The server's callback hands the `next` it was given back to the login page, encoded.
      const back = new URL('http://bt.invalid/login');
      back.search = new URLSearchParams({ provider: 'google', apiKey: 'k', next: path }).toString();
      const next = safeNext(back.searchParams.get('next'));
      assert.equal(next, path);
      assert.equal(reauthAction(new URL(next, 'http://bt.invalid').searchParams.get('reauth')), action);
    }
    // A forged value survives safeNext (it is a path of this site) and is ignored by the profile.
    const forged = safeNext('/profile?reauth=%3Cscript%3E');
    assert.equal(reauthAction(new URL(forged, 'http://bt.invalid').searchParams.get('reauth')), null);
  });
});
