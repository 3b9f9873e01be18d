import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createdByText, generatorTexts, readProvider, strategyOriginLabel } from '../src/features/generator/provider.js';

describe('naming the strategy generator', () => {
  it('reads the provider of GET /api/gpt/provider and of a generation answer; anything else is unknown', () => {
    assert.equal(readProvider({ provider: 'builtin' }), 'builtin');
    assert.equal(readProvider({ provider: 'openai' }), 'openai');
    assert.equal(readProvider('builtin'), 'builtin');
    assert.equal(readProvider({ provider: 'gpt-4' }), null);
    assert.equal(readProvider(null), null);
  });

  it('without a chat model nothing says "IA": the screens say "générateur intégré"', () => {
    const builtin = generatorTexts('builtin');
    for (const text of Object.values(builtin)) assert.doesNotMatch(text, /\bIA\b/);
    assert.match(builtin.toggle, /générateur intégré/);
    assert.match(builtin.title, /générateur intégré/);
    assert.match(builtin.hint, /Aucun modèle de langage/);
    assert.equal(strategyOriginLabel('gpt', 'builtin'), 'Générateur intégré');
    assert.equal(createdByText('builtin'), 'Stratégie créée par le générateur intégré');
    // Before the server has answered: neutral words, no claim either way.
    for (const text of Object.values(generatorTexts(null))) assert.doesNotMatch(text, /\bIA\b|intégré/);
    assert.equal(strategyOriginLabel('gpt', null), 'Générée');
  });

  it('with a chat model, "IA"; imports stay imports', () => {
    assert.equal(generatorTexts('openai').toggle, 'Générer avec l’IA');
    assert.equal(strategyOriginLabel('gpt', 'openai'), 'IA');
    assert.equal(createdByText('openai'), 'Stratégie créée par l’IA');
    assert.equal(strategyOriginLabel('import', 'openai'), 'Import .py');
  });
});
