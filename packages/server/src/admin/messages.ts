/**
 * The admin console's French sentences. Those of the console's own catalogue (docs/admin.md,
 * "Messages") are quoted verbatim; the others follow their tone and say what is wrong and where.
 */
export const ADMIN_MSG = {
  // Quoted from the console's catalogue.
  provideZipOrUrl: 'Fournis un ZIP (fichier) ou une URL.',
  importFailed: "Échec de l'import.",
  reindexPartial: 'Indexation partielle/échouée',
  reindexFailed: "Échec de l'indexation",
  restoreAllFailed: 'Restauration (tout) impossible.',
  fileDownloadImpossible: 'Impossible de télécharger ce fichier.',
  fileDeleteFailed: 'Échec de la suppression du fichier.',
  unknownAction: 'Action inconnue',
  rebuildFailed: 'Rebuild KO',

  // Users and history.
  userMissing: 'Utilisateur manquant (user_id).',
  userNotFound: 'Utilisateur introuvable.',
  amountInvalid: 'Montant invalide (un entier de 1 à 1000).',
  creditsAdded: (n: number) => `${n} crédit(s) ajouté(s).`,
  creditsRemoved: (n: number) => `${n} crédit(s) retiré(s).`,
  notEnoughToRemove: (amount: number, balance: number) =>
    `Impossible de retirer ${amount} crédit(s) : le solde est de ${balance} (il ne descend jamais sous zéro).`,
  cannotDeleteSelf: 'Tu ne peux pas supprimer ton propre compte depuis la console.',
  cannotDeleteAdmin: 'Un compte administrateur ne se supprime pas depuis la console.',
  userDeleted: 'Utilisateur supprimé (compte archivé, sessions révoquées).',
  historyScopeInvalid: "Portée de réinitialisation invalide (seule « all » existe).",
  historyReset: "Historique d'achats réinitialisé pour tous les utilisateurs (abonnements et crédits inchangés).",
  userSortInvalid: (value: string, sorts: readonly string[]) => `Tri inconnu : « ${value.slice(0, 40)} » (${sorts.join(', ')}).`,
  pageInvalid: (maxLimit: number) => `Pagination invalide : offset ≥ 0, limit de 1 à ${maxLimit}.`,

  // Statistics.
  badRange: (value: string) => `Période inconnue : « ${value.slice(0, 40)} » (day, week, month, all ou custom).`,
  customNeedsDates: 'Période personnalisée : renseigne start et end (AAAA-MM-JJ).',
  badDay: (field: string, value: string) => `Date invalide pour ${field} : « ${value.slice(0, 40)} » (attendu AAAA-MM-JJ, un jour qui existe).`,
  rangeReversed: 'Période invalide : la date de début doit précéder la date de fin.',
  badKind: (value: string, kinds: readonly string[]) => `Répartition inconnue : « ${value.slice(0, 60)} » (${kinds.join(', ')}).`,
  kindMissing: 'Renseigne la répartition voulue (kind).',
  badKpi: (value: string, kpis: readonly string[]) => `Indicateur inconnu : « ${value.slice(0, 60)} » (${kpis.join(', ')}).`,
  kpiMissing: "Renseigne l'indicateur voulu (kpi).",
  badHour: 'Heure invalide (un entier de 0 à 23).',
  badWeekday: 'Jour invalide (un entier de 0, lundi, à 6, dimanche).',
  badTopLimit: 'Nombre de clients invalide (un entier de 1 à 100).',
  metricsReset: (n: number) => `Statistiques réinitialisées : ${n} événement(s) supprimé(s).`,
  metricsRebuilt: (n: number) => `Statistiques reconstruites : ${n} événement(s) à partir des comptes, du registre de crédits et des backtests.`,

  // Backtests.
  runNotFound: 'Aucun backtest terminé ne correspond à cette demande.',
  runQueryMissing: 'Renseigne le backtest : id, ou folder, ou symbol, timeframe, strategy et period.',
  periodInvalid: (value: string) => `Période invalide : « ${value.slice(0, 60)} » (AAAA-MM-JJ → AAAA-MM-JJ, ou AAAAMMJJ-AAAAMMJJ).`,
  slInvalid: (value: string) => `Stop invalide : « ${value.slice(0, 40)} » (un nombre de pips ≥ 0).`,
  noWorkbook: '.xlsx indisponible pour ce backtest.',

  // Strategy archive.
  archiveTypeInvalid: 'Type invalide (gpt ou import).',
  archiveIdMissing: "Renseigne l'entrée (type et id).",
  archiveNotFound: 'Entrée introuvable dans les archives.',
  archiveNoFile: 'Aucun fichier archivé pour cette entrée.',
  archiveTimestampInvalid: (value: string) => `Horodatage invalide : « ${value.slice(0, 40)} » (secondes depuis 1970).`,
  includeDeletedInvalid: (value: string) => `include_deleted invalide : « ${value.slice(0, 40)} » (true ou false).`,
  archiveDeleted: 'Entrée archivée supprimée (elle reste restaurable).',
  archiveRestored: (n: number) => `${n} entrée(s) restaurée(s).`,

  // Disk explorer.
  rootMissing: 'Renseigne la racine (root).',
  rootUnknown: (value: string, keys: readonly string[]) => `Racine inconnue : « ${value.slice(0, 40)} » (${keys.join(', ')}).`,
  pathMissing: 'Renseigne le chemin du fichier (path).',
  treeParamsInvalid: 'Paramètres invalides : depth de 0 à 5, limit de 10 à 5000, offset ≥ 0.',
  notADirectory: "Ce chemin n'est pas un dossier.",
  notAFile: "Ce chemin n'est pas un fichier.",
  pathNotFound: 'Fichier ou dossier introuvable.',

  // Maintenance.
  emailInvalid: 'Adresse e-mail invalide.',
  noRecreateCounter: 'Aucun compteur de recréation pour cette adresse.',
  relMissing: 'Renseigne le fichier (rel).',
  invoiceNotFound: 'Fichier introuvable.',
  invoiceDeleted: 'Fichier supprimé (la facture reste enregistrée et peut être redessinée).',
  monthInvalid: (value: string) => `Mois cible invalide : « ${value.slice(0, 40)} » (AAAA-MM).`,
  modeInvalid: (value: string) => `Mode invalide : « ${value.slice(0, 40)} » (skip ou overwrite).`,
  dryRunInvalid: (value: string) => `dry_run invalide : « ${value.slice(0, 40)} » (true ou false).`,
  importBodyTimeout: "Envoi de l'archive trop lent : la connexion a été coupée. Réessaie.",
  zipAndUrl: 'Fournis un ZIP ou une URL, pas les deux.',
  // Said to an import or a reindex refused, whichever holds the library: "Un import est déjà en
  // cours" was wrong while a reindex ran.
  importBusy: 'Une maintenance de la bibliothèque (import ou réindexation) est déjà en cours : réessaie quand elle sera terminée.',
  importTooLarge: (mb: number) => `Archive trop volumineuse (${mb} Mo maximum).`,
  notAZip: (why: string) => `Le fichier n'est pas une archive ZIP lisible (${why}).`,
  tooManyEntries: (max: number) => `Archive refusée : plus de ${max} entrées.`,
  urlInvalid: 'URL invalide : une adresse http:// ou https:// complète est attendue.',
  urlProtocol: (protocol: string) => `URL refusée : seuls http et https sont acceptés (pas ${protocol.slice(0, 20)}).`,
  urlPrivate: (host: string, address: string) =>
    `URL refusée : ${host.slice(0, 100)} désigne une adresse privée ou locale (${address}). Ajoute son réseau à IMPORT_URL_ALLOW pour l'autoriser.`,
  urlUnresolved: (host: string) => `URL injoignable : le nom ${host.slice(0, 100)} ne se résout pas.`,
  urlFailed: (why: string) => `Téléchargement de l'URL impossible : ${why.slice(0, 160)}.`,
  urlStatus: (status: number) => `Téléchargement de l'URL impossible : le serveur a répondu ${status}.`,
  urlTooManyRedirects: (max: number) => `Téléchargement de l'URL impossible : plus de ${max} redirections.`,
  urlTimeout: (seconds: number) => `Téléchargement de l'URL trop long (plus de ${seconds} s).`,

  // Payment situations for the admin.
  attentionStatusInvalid: (value: string) => `Statut inconnu : « ${value.slice(0, 40)} » (open, resolved ou all).`,
  attentionIdInvalid: 'Identifiant de situation invalide (un entier positif).',
  attentionNotFound: 'Situation de paiement introuvable.',
  attentionAlreadyResolved: 'Cette situation de paiement est déjà close.',
  attentionNoteTooLong: 'Note trop longue (500 caractères au plus).',
  attentionResolved: 'Situation de paiement close.',
} as const;
