import { MAX_CANDLE_COLUMNS, type CandleErrorCode, type CandleFileError, type CandleProblem } from '@bt/core/candles';
import { HttpError } from '../app/errors.js';

/**
 * Core's candle problems (stable codes, English text) in French for the upload form: where (line,
 * column), what, and the value found. Core's English sentence and fix travel beside them in
 * `problems` for whoever wants the detail.
 */
// Every error code of core, checked by the compiler: a code core adds without its French sentence
// here fails the typecheck instead of reaching the form in English.
const TEXT: Record<CandleErrorCode, (p: CandleProblem) => string> = {
  empty_file: () => 'le fichier est vide',
  not_utf8: () => "le fichier n'est pas encodé en UTF-8 (enregistre-le en « CSV UTF-8 »)",
  semicolon_separator: () => 'les colonnes sont séparées par des points-virgules : utilise des virgules et des points décimaux',
  wrong_separator: () => 'les colonnes doivent être séparées par des virgules',
  missing_header: () => "la ligne d'en-tête manque (time,open,high,low,close,volume)",
  no_rows: () => "le fichier a un en-tête mais aucune bougie",
  empty_line: () => 'ligne vide entre deux bougies',
  line_too_long: () => "plus de 1 Mio sans retour à la ligne : ce n'est pas un fichier CSV de bougies",
  cr_line_ends: () => 'les lignes se terminent par un retour chariot seul (CR, ancien format Mac) : enregistre le fichier avec des fins de ligne Unix (LF) ou Windows (CRLF), par exemple en « CSV UTF-8 » depuis Excel',
  wrong_field_count: () => "le nombre de valeurs ne correspond pas au nombre de colonnes de l'en-tête",
  unclosed_quote: () => "un guillemet (\") n'est pas refermé sur la ligne : une valeur entre guillemets contient un retour à la ligne (une bougie par ligne), ou le guillemet est de trop",
  too_many_columns: (p) => `l'en-tête a ${p.value ?? 'trop de'} colonnes : ${MAX_CANDLE_COLUMNS} au plus (garde Datetime, Open, High, Low, Close, Volume et les indicateurs utiles ; vérifie le séparateur)`,
  wrong_column_name: (p) => `la colonne « ${p.value ?? p.column ?? ''} » est mal nommée (en-têtes attendus : time, open, high, low, close, volume)`,
  missing_column: (p) => `la colonne obligatoire ${p.column ?? ''} est absente`,
  duplicate_column: (p) => `la colonne ${p.column ?? ''} apparaît plusieurs fois`,
  local_time: (p) => `« ${p.value ?? ''} » n'a pas de décalage UTC : écris les heures en UTC avec +00:00 (ou en secondes depuis 1970)`,
  invalid_datetime: (p) => `« ${p.value ?? ''} » n'est pas une date et heure lisible`,
  missing_value: () => 'valeur manquante',
  non_numeric: (p) => `« ${p.value ?? ''} » n'est pas un nombre`,
  decimal_comma: (p) => `« ${p.value ?? ''} » utilise une virgule décimale : écris 1.0842`,
  high_below_low: () => 'le plus haut (high) est sous le plus bas (low)',
  high_below_body: () => "le plus haut (high) est sous l'ouverture ou la clôture",
  low_above_body: () => "le plus bas (low) est au-dessus de l'ouverture ou de la clôture",
  negative_price: () => 'prix négatif',
  negative_volume: () => 'volume négatif',
  unsorted: () => "les bougies ne sont pas dans l'ordre chronologique",
  duplicate: () => 'cette heure apparaît deux fois',
  irregular_step: () => "l'écart avec la bougie précédente ne correspond pas à l'unité de temps",
  timeframe_mismatch: () => "l'unité de temps des données ne correspond pas à celle choisie",
  invalid_json: () => 'fichier JSON illisible',
  invalid_arrow: () => 'fichier Arrow illisible',
};

export function frenchProblem(problem: CandleProblem, unit: 'ligne' | 'rangée' = 'ligne'): string {
  const where = `${unit} ${problem.line}${problem.column ? `, colonne ${problem.column}` : ''}`;
  // A warning code (never an error here) keeps core's sentence.
  const what = (TEXT[problem.code as CandleErrorCode] ?? (() => problem.message))(problem);
  return `${where} : ${what}`;
}

const LISTED = 5;

/** 400 with the first problems in one sentence, and all listed problems in `problems`. */
export function candleFileHttpError(err: CandleFileError, kind: 'csv' | 'xlsx'): HttpError {
  const unit = kind === 'xlsx' ? 'rangée' : 'ligne';
  const problems = err.problems.map((p) => ({ code: p.code, line: p.line, column: p.column ?? null, value: p.value ?? null, message: frenchProblem(p, unit), detail: p.message, fix: p.fix }));
  const more = problems.length - LISTED + err.omitted;
  const head = problems.slice(0, LISTED).map((p) => p.message).join(' ; ');
  const detail = `Fichier invalide : ${head}${more > 0 ? ` (et ${more} autre${more > 1 ? 's' : ''} problème${more > 1 ? 's' : ''})` : ''}.`;
  return new HttpError(400, detail, {}, { problems, omitted: err.omitted });
}
