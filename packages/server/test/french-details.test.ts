// English inside French answers (the audit of /api/*): a parameter's JSON text that does not read
// carried the JavaScript engine's message (`Unexpected token 'e', "texte" is not valid JSON`, and
// `"\"texte\""` was read twice to get there), and a Python syntax error its English text alone.
// Both are French sentences now, with the line and the column, the details kept.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { BREAKOUT_PY, balance, funded, importStrategy, runBacktest } from './support/work.js';

const t = useTestApp({ library: true });

describe(`French details (${TEST_DIALECT})`, () => {
  it('params_json that does not read: where and why in French, for an official and a personal strategy; nothing charged', async () => {
    const user = await funded(t, 10);
    const imported = await importStrategy(t, user.key, BREAKOUT_PY, 'cassure.py');
    assert.equal(imported.status, 201, imported.text);
    const cases: [string, string][] = [
      ['"texte"', 'Paramètre « params » invalide : "texte" (attendu : un objet { nom: valeur }).'],
      ['texte', 'Paramètre « params » invalide : "texte" (attendu : un objet JSON (JSON illisible ligne 1, colonne 2 : caractère « e » inattendu)).'],
      ['{"lookback": 12,\n "x" 3}', 'Paramètre « params » invalide : "{\\"lookback\\": 12,\\n \\"x\\" 3}" (attendu : un objet JSON (JSON illisible ligne 2, colonne 6 : caractère « 3 » inattendu)).'],
      ['{"lookback": 12', 'Paramètre « params » invalide : "{\\"lookback\\": 12" (attendu : un objet JSON (JSON illisible ligne 1, colonne 16 : fin du texte inattendue)).'],
      ['{"a": "x', 'Paramètre « params » invalide : "{\\"a\\": \\"x" (attendu : un objet JSON (JSON illisible ligne 1, colonne 7 : texte entre guillemets non fermé)).'],
      ['{} []', 'Paramètre « params » invalide : "{} []" (attendu : un objet JSON (JSON illisible ligne 1, colonne 4 : texte après la valeur JSON)).'],
    ];
    for (const [params, detail] of cases) {
      const official = await runBacktest(t, user.key, { params_json: params });
      assert.deepEqual([official.status, official.body.detail], [400, detail], params);
      const personal = await runBacktest(t, user.key, { strategy: imported.body.id, params_json: params });
      assert.deepEqual([personal.status, personal.body.detail], [400, detail], `${params} (personal)`);
      assert.doesNotMatch(detail, /Unexpected|is not valid JSON|position/);
    }
    assert.equal(await balance(t, user.id), 10, 'nothing charged');
  });

  it('a Python syntax error: a French sentence with line and column, Python’s text kept beside it', async () => {
    const user = await funded(t, 0);
    const head = 'def detect_x(candles, params):\n';
    const cases: [string, string][] = [
      ['def detect_x(candles, params)\n    return []\n', "Erreur de syntaxe Python ligne 1, colonne 30 : « : » attendu (Python : « expected ':' »)."],
      [`${head}    x = (1,\n    return []\n`, "Erreur de syntaxe Python ligne 2, colonne 9 : « ( » jamais refermé (Python : « '(' was never closed »)."],
      [`${head}    return [1 2]\n`, 'Erreur de syntaxe Python ligne 2, colonne 13 : syntaxe invalide, une virgule manque peut-être (Python : « invalid syntax. Perhaps you forgot a comma? »).'],
      [`${head}    x = "abc\n    return []\n`, 'Erreur de syntaxe Python ligne 2, colonne 9 : texte entre guillemets non refermé (vu ligne 2) (Python : « unterminated string literal (detected at line 2) »).'],
      [`${head}    x = 1\n      y = 2\n    return []\n`, 'Erreur de syntaxe Python ligne 3, colonne 6 : indentation inattendue (Python : « unexpected indent »).'],
      [`${head}    return [1 €]\n`, "Erreur de syntaxe Python ligne 2, colonne 15 : caractère U+20AC invalide (Python : « invalid character '€' (U+20AC) »)."],
      // A message without a translation: still a French sentence, Python's text in it.
      [`${head}    return [x for x in 1 if]\n`, null as unknown as string],
    ];
    for (const [source, detail] of cases) {
      const res = await importStrategy(t, user.key, source, 'erreur.py');
      assert.equal(res.status, 400, res.text);
      if (detail) assert.equal(res.body.detail, detail);
      else assert.match(res.body.detail, /^Erreur de syntaxe Python ligne 2, colonne \d+( : [^(]+)? \(Python : « .+ »\)\.$/);
    }
  });
});
