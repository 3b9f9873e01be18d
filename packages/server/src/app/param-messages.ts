import { showValue, type ParamError } from '@bt/core/params';

/**
 * Core's parameter errors in French: `invalid min_wait_candles: 30 (expected at most
 * max_wait_candles (20))` becomes `Paramètre « min_wait_candles » invalide : 30 (attendu : au plus
 * max_wait_candles (20)).` The expectation is translated phrase by phrase; an unknown phrase is
 * kept as core wrote it rather than guessed.
 */
const PHRASES: [RegExp, string | ((...groups: string[]) => string)][] = [
  [/^a boolean: true\/false, 1\/0 or oui\/non$/, 'un booléen : true/false, 1/0 ou oui/non'],
  [/^an integer$/, 'un nombre entier'],
  [/^a number$/, 'un nombre'],
  [/^a string$/, 'un texte'],
  [/^a text of at most (\S+) characters$/, (a) => `un texte de ${a} caractères au plus`],
  [/^a number, a boolean or a string$/, 'un nombre, un booléen ou un texte'],
  [/^an integer from (\S+) to (\S+)$/, (a, b) => `un nombre entier de ${a} à ${b}`],
  [/^a number from (\S+) to (\S+)$/, (a, b) => `un nombre de ${a} à ${b}`],
  [/^an integer ≥ (\S+)$/, (a) => `un nombre entier ≥ ${a}`],
  [/^a number ≥ (\S+)$/, (a) => `un nombre ≥ ${a}`],
  [/^an integer ≤ (\S+)$/, (a) => `un nombre entier ≤ ${a}`],
  [/^a number ≤ (\S+)$/, (a) => `un nombre ≤ ${a}`],
  [/^one of (.+)$/, (a) => `une valeur parmi ${a}`],
  [/^at most (\S+) \((.+)\)$/, (a, b) => `au plus ${a} (${b})`],
  [/^at least (\S+) \((.+)\)$/, (a, b) => `au moins ${a} (${b})`],
  [/^a different column from (\S+)$/, (a) => `une colonne différente de ${a}`],
  [/^a column name such as (\S+), or a whole period ≥ 1$/, (a) => `un nom de colonne comme ${a}, ou une période entière ≥ 1`],
  [/^an object of name: value$/, 'un objet { nom: valeur }'],
  [/^a column of the data, or one bt computes: RSI, RSI_n or EMA_n$/, 'une colonne du fichier, ou une que bt calcule : RSI, RSI_n ou EMA_n'],
  [/^a JSON object \(line (\d+), column (\d+): (.+)\)$/, (line, column, reason) => `un objet JSON (JSON illisible ligne ${line}, colonne ${column} : ${jsonReason(reason)})`],
  [/^a JSON object \((.+)\)$/, 'un objet JSON'],
];

/** Core's JSON text errors (core/src/params/json-text.ts), in French; the character stays as core showed it. */
const JSON_REASONS: [RegExp, string | ((character: string) => string)][] = [
  [/^unexpected end of text$/, 'fin du texte inattendue'],
  [/^unexpected character (.+)$/, (c) => `caractère ${c.replace(/^'(.*)'$/su, '« $1 »')} inattendu`],
  [/^unterminated string$/, 'texte entre guillemets non fermé'],
  [/^invalid escape in a string$/, 'échappement invalide dans un texte'],
  [/^control character in a string$/, 'caractère de contrôle dans un texte'],
  [/^invalid number$/, 'nombre invalide'],
  [/^text after the JSON value$/, 'texte après la valeur JSON'],
];

function jsonReason(reason: string): string {
  for (const [pattern, french] of JSON_REASONS) {
    const match = pattern.exec(reason);
    if (match) return typeof french === 'string' ? french : french(match[1]);
  }
  return 'syntaxe invalide';
}

export function frenchParamMessage(err: ParamError): string {
  const expected = err.expected ?? '';
  if (!expected) return `Paramètre « ${err.param} » invalide : ${err.message.replace(/^invalid [^:]+: /, '')}.`;
  let french = expected;
  for (const [pattern, replacement] of PHRASES) {
    const match = pattern.exec(expected);
    if (match) {
      french = typeof replacement === 'string' ? replacement : replacement(...match.slice(1));
      break;
    }
  }
  if (err.param === 'min_overlap_ratio') french = 'une fraction dans ]0, 1] comme 0.25, ou un pourcentage comme "25%" ; vide pour une entrée au toucher';
  return `Paramètre « ${err.param} » invalide : ${showValue(err.value)} (attendu : ${french}).`;
}
