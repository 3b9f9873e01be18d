/** The French refusals of the upload bounds (docs/security.md, "Uploads"). */
export const UPLOAD_LIMIT_MESSAGES = {
  busy: 'Serveur occupé : trop de fichiers sont en cours d’analyse. Réessaie dans quelques secondes.',
  bodyTimeout: 'Envoi du fichier trop lent : la connexion a été coupée. Réessaie.',
  containerMismatch: (kind: 'csv' | 'xlsx', found: string) =>
    found === 'zip'
      ? `Le fichier .${kind} est une archive ZIP, pas ${kind === 'csv' ? 'un fichier texte CSV' : 'un classeur Excel'} : décompresse-la et envoie le fichier qu’elle contient.`
      : found === 'gzip'
        ? `Le fichier .${kind} est compressé (gzip) : décompresse-le et envoie le fichier obtenu.`
        : kind === 'csv'
          ? `Le fichier .csv n'est pas un fichier texte CSV (contenu ${found === 'xlsx' ? 'de classeur Excel (.xlsx) : renomme-le en .xlsx' : found === 'arrow' ? 'Arrow' : 'JSON'}).`
          : 'Le fichier .xlsx n’est pas un classeur Excel : enregistre-le en « Classeur Excel (.xlsx) » ou envoie un CSV.',
  xlsxBroken: 'Classeur .xlsx illisible : l’archive est endommagée. Enregistre-le de nouveau en .xlsx, ou envoie un CSV.',
  xlsxTooLarge: (bytes: number) => `Classeur trop volumineux une fois décompressé (${Math.round(bytes / 1024 / 1024)} Mo maximum) : envoie plutôt un CSV.`,
  xlsxTooManyRows: (rows: number) => `Classeur trop long : ${rows.toLocaleString('fr-FR')} lignes au plus. Envoie plutôt un CSV.`,
  readerFailed: (kind: 'csv' | 'xlsx') =>
    `Fichier illisible : sa lecture a échoué sur une erreur inattendue. Vérifie que c’est un fichier de bougies ${kind === 'xlsx' ? '.xlsx' : 'CSV'} ; si le problème persiste, écris au support.`,
  parseMemory: 'Fichier trop lourd à analyser (mémoire dépassée) : envoie une période plus courte, ou un CSV.',
  parseTimeout: (seconds: number) => `Analyse du fichier trop longue (plus de ${seconds} s) : envoie une période plus courte, ou un CSV.`,
} as const;
