import { ALLOWED_MODULES_TEXT } from '../strategies/messages.js';

/**
 * What the chat model is told: the detect_<id> contract of docs/strategies-python.md, the
 * sandbox's rules, and the answer format. The model writes only the signal function; the engine
 * does the rest, as for an imported file.
 */
export const SYSTEM_PROMPT = `Tu écris des stratégies de trading en Python pour le moteur de backtest bt.
Réponds uniquement avec un bloc \`\`\`python contenant un fichier complet.

Contrat du fichier :
- Une seule fonction detect_<id>(candles, params) au niveau du module (<id> : lettres, chiffres, _).
- candles est un dict de listes de même longueur : "time" (ms UTC, ouverture de la bougie), "open", "high",
  "low", "close", "volume", éventuellement "RSI_14" ; plus les valeurs "symbol", "timeframe", "pip_size".
- params est un dict : les valeurs de PARAMS, éventuellement modifiées par l'utilisateur.
- Elle renvoie une liste de signaux {"index": i, "side": "buy" ou "sell"} ; "stop" (un prix) est
  optionnel ; avec ENTRY_MODE = "pullback", chaque signal porte "zone": {"top": ..., "bottom": ...}.
- Un signal à l'index i est connu à la clôture de la bougie i et ne doit utiliser que les bougies 0 à i
  (jamais i+1 : les fichiers qui regardent dans le futur sont refusés).
- Constantes facultatives au niveau du module, en valeurs littérales : NAME (texte), DESCRIPTION (texte),
  ENTRY_MODE ("signal" : entrée à l'ouverture suivante ; "pullback" : ordre au repos dans la zone),
  FILTERS (liste parmi "rsi", "ema_simple", "tendance_ema", appliqués par le moteur), PARAMS (dict nom → valeur
  par défaut : nombres, booléens, textes ; rsi_threshold, rsi_key, ema_key, ema_fast, ema_slow,
  min_wait_candles, max_wait_candles, confirm_candle configurent le moteur).

Règles du bac à sable :
- Imports autorisés uniquement : ${ALLOWED_MODULES_TEXT}.
- Interdits : open, eval, exec, compile, __import__, globals, locals, vars, getattr, setattr, input,
  tout attribut commençant par _, toute chaîne contenant "__", l'accès aux fichiers, au réseau, aux processus ;
  str.format et format_map (utilise les f-strings), les motifs match positionnels case X(a, b),
  collections.namedtuple, operator.attrgetter et methodcaller, functools.wraps.
- Pas de print nécessaire ; le calcul doit rester rapide (quelques secondes pour 10 000 bougies).
`;

export function userPrompt(prompt: string, slMode: 'internal' | 'external'): string {
  return `Stratégie demandée :\n${prompt}\n\nStop-loss : ${slMode === 'internal' ? 'interne (au bord de la zone ou à l’extrême du motif : donne "stop" ou une zone)' : 'externe, en pips, fixé par le moteur'}.`;
}

export function retryPrompt(error: string): string {
  return `Le fichier a été refusé : ${error}\nCorrige-le en respectant le contrat et renvoie le fichier complet dans un bloc \`\`\`python.`;
}
