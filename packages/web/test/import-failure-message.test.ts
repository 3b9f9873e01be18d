import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpError, NetworkError } from '../src/api/errors.js';
import { importFailureMessage } from '../src/pages/backtest/personal.js';

describe('the .py import failure message (docs/web.md, "Backtest screen")', () => {
  it('prefixes the spec sentence to a problem of the file itself', () => {
    const syntax = 'Erreur de syntaxe Python ligne 1, colonne 30 : « : » attendu.';
    assert.equal(importFailureMessage(new HttpError(400, syntax, { detail: syntax })), `Import impossible. Vérifie le .py. ${syntax}`);
    const big = 'Fichier trop volumineux (256 Ko maximum).';
    assert.equal(importFailureMessage(new HttpError(413, big, { detail: big })), `Import impossible. Vérifie le .py. ${big}`);
  });

  it('shows alone the refusals that editing the file does not cure', () => {
    const cases: Array<[number, string]> = [
      [409, "Tu as atteint le maximum de 100 stratégies personnelles. Supprimes-en avant d'en importer ou d'en générer une autre."],
      [429, 'Limite quotidienne atteinte : 20 imports ou générations de stratégie par jour. Réessaie demain.'],
      [429, "Tu as déjà 2 exécutions de stratégie Python en cours : attends qu'elles se terminent avant d'en lancer une autre."],
      [503, "L'exécution des stratégies Python est désactivée sur ce serveur : le bac à sable qui les isole (bubblewrap) n'est pas disponible."],
    ];
    for (const [status, detail] of cases) {
      const message = importFailureMessage(new HttpError(status, detail, { detail }));
      assert.equal(message, detail, `${status}`);
      assert.ok(!message.includes('Vérifie le .py'), `${status} must not blame the file`);
    }
  });

  it('says the network failed when no answer came, and keeps the spec sentence otherwise', () => {
    assert.equal(importFailureMessage(new NetworkError(new TypeError('Failed to fetch'))), 'Erreur réseau.');
    assert.equal(importFailureMessage(new HttpError(500, undefined, {})), 'Import impossible. Vérifie le .py.');
    assert.equal(importFailureMessage(new HttpError(400, undefined, {})), 'Import impossible. Vérifie le .py.');
    assert.equal(importFailureMessage(new Error('boom')), 'Import impossible. Vérifie le .py.');
  });
});
