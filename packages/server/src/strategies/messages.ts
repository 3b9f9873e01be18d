import { HttpError } from '../app/errors.js';
import type { SandboxError, SandboxLimits } from './sandbox/sandbox.js';

export const ALLOWED_MODULES_TEXT = 'math, statistics, itertools, functools, collections, operator, bisect, heapq, fractions, decimal, typing';

/** The French sentence for a sandbox refusal: what was refused, where, and what is allowed. */
export function sandboxMessage(err: SandboxError, limits: Pick<SandboxLimits, 'memoryBytes' | 'cpuSeconds'>): string {
  const at = err.line ? ` ligne ${err.line}` : '';
  const signal = () => `Signal n°${Number(err.extra.position ?? 0) + 1}`;
  switch (err.code) {
    case 'syntax':
      return syntaxMessage(err);
    case 'too_complex':
      return err.detail
        ? `Fichier trop complexe (plus de ${err.detail} nœuds de syntaxe).`
        : 'Fichier trop complexe : des expressions imbriquées trop profondément.';
    case 'forbidden_import':
      return `Import interdit${at} : « ${err.detail} ». Modules autorisés : ${ALLOWED_MODULES_TEXT}.`;
    case 'forbidden_name':
      return `Fonction interdite${at} : « ${err.detail} » (pas d'accès aux fichiers, au réseau, ni d'exécution de code).`;
    case 'forbidden_attribute':
      return `Accès interdit${at} : attribut « ${err.detail} » (les attributs commençant par _ et les attributs internes de Python sont refusés).`;
    case 'forbidden_pattern':
      return `Motif interdit${at} : « case ${err.detail}(…) » avec des sous-motifs positionnels lit des attributs par leur nom ; écris ${err.detail}(attribut=valeur).`;
    case 'forbidden_string':
      return `Texte interdit${at} : les chaînes contenant « __ » sont refusées.`;
    case 'no_detect':
      return 'Aucune fonction detect_<id>(candles, params) trouvée : le fichier doit en définir une.';
    case 'several_detect':
      return `Une seule fonction detect_<id> est attendue (trouvées : ${err.detail}).`;
    case 'bad_signature':
      return `La fonction ${err.detail}${at} doit prendre deux arguments : detect_<id>(candles, params).`;
    case 'bad_detect_name':
      return `Nom de fonction invalide${at} : « ${err.detail} » (detect_ suivi de lettres, de chiffres et de _).`;
    case 'bad_meta':
      return `${err.detail}${at} doit être une valeur littérale (dictionnaire, liste, texte ou nombre).`;
    case 'runtime_error':
      return `Erreur à l'exécution${at} : ${err.detail}.`;
    case 'refused_operation':
      return `Opération interdite pendant l'exécution${at} : ${err.detail}.`;
    case 'memory':
      return `Mémoire dépassée (${Math.round(limits.memoryBytes / 1024 / 1024)} Mo maximum) : le script a été arrêté.`;
    case 'cpu_limit':
      return `Temps de calcul dépassé (${limits.cpuSeconds} s maximum) : le script a été arrêté.`;
    case 'wall_timeout':
      return `Délai dépassé (${err.detail} s maximum) : le script a été arrêté.`;
    case 'output_too_large':
      return 'Sortie trop volumineuse : le script a été arrêté.';
    case 'killed':
      return `Le script a été arrêté (${err.detail}).`;
    case 'lookahead':
      return `La stratégie regarde dans le futur : le signal de la bougie ${err.detail} change quand les bougies suivantes sont retirées. Un signal à l'index i ne doit utiliser que les bougies 0 à i.`;
    case 'bad_output':
      switch (err.detail) {
        case 'type':
          return `La fonction doit renvoyer une liste de signaux (reçu : ${String(err.extra.detail ?? '?')}).`;
        case 'too_many':
          return `Trop de signaux (${String(err.extra.detail)} au maximum).`;
        case 'index':
          return `${signal()} : index ${String(err.extra.detail)} hors des bougies (0 à ${Number(err.extra.n) - 1}).`;
        case 'side':
          return `${signal()} : side ${String(err.extra.detail)} invalide (buy ou sell).`;
        case 'stop':
          return `${signal()} : stop ${String(err.extra.detail)} n'est pas un prix.`;
        case 'zone':
          return `${signal()} : zone ${String(err.extra.detail)} invalide (top > bottom attendus).`;
        case 'zone_missing':
          return `${signal()} : zone manquante (avec ENTRY_MODE = "pullback", chaque signal porte "zone": {"top": …, "bottom": …}).`;
        default:
          return `${signal()} invalide : attendu {"index": i, "side": "buy" ou "sell"} ou (index, side).`;
      }
    case 'unavailable':
      return err.detail === 'isolation'
        ? "L'exécution des stratégies Python est désactivée sur ce serveur : le bac à sable qui les isole (bubblewrap) n'est pas disponible."
        : "L'exécution des stratégies Python n'est pas disponible sur ce serveur.";
    case 'busy':
      return "Trop de stratégies en cours d'exécution : réessaie dans quelques secondes.";
    case 'owner_busy':
      return `Tu as déjà ${err.detail} exécution${Number(err.detail) > 1 ? 's' : ''} de stratégie Python en cours : attends qu'elle${Number(err.detail) > 1 ? 's' : ''} se termine${Number(err.detail) > 1 ? 'nt' : ''} avant d'en lancer une autre.`;
    default:
      return "Le script n'a pas rendu de réponse exploitable.";
  }
}

/**
 * Python's syntax errors are English (`'(' was never closed`): the sentence is French, with the
 * line and the column, the usual messages translated, and Python's own text kept beside it (never
 * hidden: it names what a translation would lose, `Perhaps you forgot a comma?`).
 */
const PYTHON_SYNTAX: [RegExp, string | ((...groups: string[]) => string)][] = [
  [/^invalid syntax$/, 'syntaxe invalide'],
  [/^invalid syntax\. Perhaps you forgot a comma\?$/, 'syntaxe invalide, une virgule manque peut-être'],
  [/^expected '(.{1,20})'$/, (a) => `« ${a} » attendu`],
  [/^'(.)' was never closed$/, (a) => `« ${a} » jamais refermé`],
  [/^unmatched '(.)'$/, (a) => `« ${a} » fermant sans ouvrant`],
  [/^closing parenthesis '(.)' does not match opening parenthesis '(.)'(?: on line (\d+))?$/, (a, b, line) => `« ${a} » ne referme pas « ${b} »${line ? ` (ouvert ligne ${line})` : ''}`],
  [/^unterminated string literal \(detected at line (\d+)\)$/, (line) => `texte entre guillemets non refermé (vu ligne ${line})`],
  [/^unterminated triple-quoted string literal \(detected at line (\d+)\)$/, (line) => `texte entre triples guillemets non refermé (vu ligne ${line})`],
  [/^unexpected indent$/, 'indentation inattendue'],
  [/^unindent does not match any outer indentation level$/, 'le retrait ne correspond à aucun niveau d’indentation au-dessus'],
  [/^expected an indented block(?: after .*)?$/, 'bloc indenté attendu'],
  [/^inconsistent use of tabs and spaces in indentation$/, 'tabulations et espaces mélangés dans l’indentation'],
  [/^invalid character '(.+)' \((U\+[0-9A-F]+)\)$/, (_, code) => `caractère ${code} invalide`],
  [/^invalid non-printable character (U\+[0-9A-F]+)$/, (code) => `caractère invisible ${code} invalide`],
  [/^invalid (?:decimal|hexadecimal|octal|binary) literal$/, 'nombre invalide'],
  [/^unexpected EOF while parsing$/, 'fin du fichier inattendue'],
  [/^source code (?:string )?cannot contain null bytes$/, 'caractère nul (U+0000) dans le fichier'],
  [/^'(return|yield|await)' outside (?:async )?function$/, (a) => `« ${a} » hors d’une fonction`],
  [/^'(break|continue)' (?:not properly in|outside) loop$/, (a) => `« ${a} » hors d’une boucle`],
  [/^Missing parentheses in call to '(\w+)'.*$/, (a) => `parenthèses manquantes dans l’appel de ${a}`],
  [/^cannot assign to .*$/, 'affectation impossible ici'],
  [/^positional argument follows keyword argument$/, 'argument positionnel après un argument nommé'],
  [/^too many nested parentheses$/, 'trop de parenthèses imbriquées'],
];

function syntaxMessage(err: SandboxError): string {
  const column = Number(err.extra.column);
  const where = err.line ? ` ligne ${err.line}${Number.isInteger(column) && column > 0 ? `, colonne ${column}` : ''}` : '';
  // Python's text, on one line and bounded: it may quote the user's file.
  const python = err.detail.replace(/[\u0000-\u001f\u007f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, ' ').trim().slice(0, 200);
  if (!python) return `Erreur de syntaxe Python${where}.`;
  for (const [pattern, french] of PYTHON_SYNTAX) {
    const match = pattern.exec(python);
    if (match) return `Erreur de syntaxe Python${where} : ${typeof french === 'string' ? french : french(...match.slice(1))} (Python : « ${python} »).`;
  }
  return `Erreur de syntaxe Python${where} (Python : « ${python} »).`;
}

/**
 * The HTTP error of a sandbox refusal: 503 when Python or its isolation is missing, or the sandbox
 * saturated; 429 when the user already has as many runs in flight as the sandbox runs at once; else 400.
 */
export function sandboxHttpError(err: SandboxError, limits: Pick<SandboxLimits, 'memoryBytes' | 'cpuSeconds'>, prefix = ''): HttpError {
  const status = err.code === 'unavailable' || err.code === 'busy' ? 503 : err.code === 'owner_busy' ? 429 : 400;
  return new HttpError(status, `${prefix}${sandboxMessage(err, limits)}`);
}
