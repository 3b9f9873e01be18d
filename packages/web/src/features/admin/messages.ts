/**
 * The console's sentences (docs/product.md §3.8), verbatim, and how a failed
 * call reads: the server's detail when it has one, else '{status} {statusText}'.
 */
import { HttpError } from '../../api/errors.js';

export const MSG = {
  usersLoad: 'Erreur de chargement des utilisateurs',
  unknownAction: 'Action inconnue',
  globalHistoryLoad: 'Erreur chargement de l’historique global',
  globalResetFailed: 'Échec de la réinitialisation globale.',
  targetedDeleteFailed: 'Échec de la suppression ciblée.',
  detailsLoad: 'Erreur de chargement des détails',
  connection: 'Erreur de connexion ou réponse invalide',
  rebuildFailed: 'Rebuild KO',
  backtestsLoad: 'Impossible de charger le résumé des backtests',
  invalidAnswer: 'Réponse invalide',
  downloadImpossible: (why: string) => `Téléchargement impossible : ${why}`,
  fileDownload: 'Impossible de télécharger ce fichier.',
  fileDelete: 'Échec de la suppression du fichier.',
  zipOrUrl: 'Fournis un ZIP (fichier) ou une URL.',
  importFailed: "Échec de l'import.",
  reindexPartial: 'Indexation partielle/échouée',
  reindexFailed: "Échec de l'indexation",
  restoreAllFailed: 'Restauration (tout) impossible.',
  loadFailed: 'Erreur de chargement.',
  dataLoad: 'Impossible de charger les données.',
  adminRequired: 'Accès administrateur requis.',
  checkingRights: 'Vérification des droits admin…',
  empty: 'Aucune donnée',
  noFile: 'Aucun fichier.',
  noEntry: 'Aucune entrée.',
  noStrategy: 'Aucune stratégie pour le moment.',
} as const;

/** A refused admin call (403): the key is not an admin's. */
export function isForbidden(error: unknown): boolean {
  return error instanceof HttpError && error.status === 403;
}

/**
 * What to show for a failed call: the server's detail, else '{status} {statusText}' for a non-OK
 * answer, else the console's own sentence (a network failure or an unreadable answer).
 */
export function failure(error: unknown, fallback: string): string {
  if (error instanceof HttpError) {
    if (error.status === 403) return MSG.adminRequired;
    if (error.detail) return error.detail;
    return `${error.status} ${error.statusText}`.trim();
  }
  return fallback;
}
