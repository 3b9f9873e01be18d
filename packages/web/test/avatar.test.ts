import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { memoryStorage } from '../src/session/keyStorage.js';
import {
  AVATAR_PALETTE,
  avatarInitials,
  avatarLook,
  avatarTextColor,
  contrastRatio,
  derivedAvatarColor,
  normalizeHexColor,
  saveAvatarColor,
  storedAvatarColor,
} from '../src/shell/avatar.js';

describe('avatar initials (docs/product.md §1.5)', () => {
  it('uses the name first: first letters of the first and last words, upper case', () => {
    assert.equal(avatarInitials({ name: 'marie curie' }), 'MC');
    assert.equal(avatarInitials({ name: 'Jean-Luc de la Tour', email: 'x@y.fr' }), 'JT');
    assert.equal(avatarInitials({ full_name: 'Élodie Martin' }), 'ÉM');
    assert.equal(avatarInitials({ name: 'Cher' }), 'C');
  });

  it('then the first and last names, then the e-mail, then U', () => {
    assert.equal(avatarInitials({ first_name: 'Ada', last_name: 'Lovelace', email: 'z@z.fr' }), 'AL');
    assert.equal(avatarInitials({ first_name: 'Ada' }), 'A');
    assert.equal(avatarInitials({ email: 'john.doe@example.com' }), 'JD');
    assert.equal(avatarInitials({ email: 'trader42@example.com' }), 'T');
    assert.equal(avatarInitials({ name: '  ', email: '' }), 'U');
    assert.equal(avatarInitials(null), 'U');
  });
});

describe('avatar colour', () => {
  it('accepts hex colours of 3 or 6 digits only', () => {
    assert.equal(normalizeHexColor('#ABC'), '#abc');
    assert.equal(normalizeHexColor('1d4ed8'), '#1d4ed8');
    for (const bad of ['#abcd', 'blue', '#12345g', '', null, 42]) assert.equal(normalizeHexColor(bad), null);
  });

  it('derives a stable colour from the e-mail or name among 9 blues and indigos', () => {
    assert.equal(AVATAR_PALETTE.length, 9);
    const a = derivedAvatarColor({ email: 'Ana@Example.com' });
    assert.equal(a, derivedAvatarColor({ email: 'ana@example.com' }), 'case does not change the colour');
    assert.ok((AVATAR_PALETTE as readonly string[]).includes(a));
    const seen = new Set(Array.from({ length: 60 }, (_, i) => derivedAvatarColor({ email: `user${i}@bt.fr` })));
    assert.ok(seen.size >= 6, `the hash spreads over the palette (${seen.size} colours)`);
  });

  it('picks the text colour with the better contrast', () => {
    assert.equal(avatarTextColor('#1e3a8a'), '#ffffff');
    assert.equal(avatarTextColor('#818cf8'), '#0b1020');
    for (const color of AVATAR_PALETTE) {
      assert.ok(contrastRatio(color, avatarTextColor(color)) >= 4.5, `${color} stays readable`);
    }
  });

  it('prefers the per-key colour, then the global one, then the derived one', () => {
    const storage = memoryStorage();
    assert.equal(storedAvatarColor(storage, 'k1'), null);
    saveAvatarColor(storage, 'k1', '#f0f');
    assert.equal(storedAvatarColor(storage, 'k1'), '#f0f');
    assert.equal(storedAvatarColor(storage, 'k2'), '#f0f', 'global fallback');
    storage.setItem('avatarColor:k2', '#00ff00');
    assert.equal(storedAvatarColor(storage, 'k2'), '#00ff00');
    storage.setItem('avatarColor:k3', 'not-a-colour');
    assert.equal(storedAvatarColor(storage, 'k3'), '#f0f');
    assert.throws(() => saveAvatarColor(storage, 'k1', 'red'), /invalid avatarColor: red/);
    assert.deepEqual(avatarLook({ name: 'Ana Lima' }, '#fff'), { initials: 'AL', background: '#fff', color: '#0b1020' });
    assert.equal(avatarLook({ email: 'x@y.fr' }, null).background, derivedAvatarColor({ email: 'x@y.fr' }));
  });
});
