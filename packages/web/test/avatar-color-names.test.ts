// The profile's colour swatches are buttons without text: a screen reader says their aria-label,
// which was the hex code ('#dc2626'). Each has a French name now (docs/web.md, "Profile").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AVATAR_CHOICES, avatarColorName } from '../src/features/profile/avatarColors.js';

describe('the avatar colours’ names', () => {
  it('names every offered colour in French, each differently, never as its hex code', () => {
    const names = AVATAR_CHOICES.map(avatarColorName);
    assert.equal(AVATAR_CHOICES.length, 17);
    assert.equal(new Set(names).size, names.length, names.join(', '));
    for (const name of names) assert.doesNotMatch(name, /#|[0-9a-f]{6}|personnalisée/i, name);
    assert.equal(avatarColorName('#dc2626'), 'Rouge');
    assert.equal(avatarColorName('#1E3A8A'), 'Bleu nuit', 'any case');
  });

  it('says a colour picked with the colour input is a custom one', () => {
    assert.equal(avatarColorName('#123456'), 'Couleur personnalisée (#123456)');
    assert.equal(avatarColorName('not a colour'), 'Couleur personnalisée');
  });
});
