/** What an import says about each refused entry (docs/admin.md, "Import rules"). */
export const IMPORT_MSG = {
  absolute: 'Chemin absolu refusé.',
  traversal: 'Chemin avec « .. » refusé (sortie du dossier).',
  symlink: 'Lien symbolique refusé.',
  badName: 'Nom de fichier invalide (caractères de contrôle).',
  encrypted: 'Entrée chiffrée (protégée par un mot de passe) : refaire l’archive sans mot de passe.',
  compression: (method: number) => `Méthode de compression non prise en charge (${method}) : seules « stockée » et « deflate » sont lues.`,
  tooLarge: (mb: number) => `Fichier trop volumineux une fois décompressé (${mb} Mo maximum).`,
  budget: (mb: number) => `Archive trop volumineuse une fois décompressée (${mb} Mo maximum au total) : fichier non lu.`,
  broken: 'Entrée illisible (données compressées endommagées ou taille annoncée fausse).',
  notCsv: 'Fichier ignoré : seuls les .csv sont importés.',
  pattern: 'Nom non reconnu : attendu SYMBOLE_UT_AAAA-MM.csv (ou SYMBOLE_UT.csv pour le mois cible).',
  symbol: (symbol: string) => `Symbole hors catalogue : « ${symbol.slice(0, 40)} ».`,
  otherMonth: (named: string, target: string) => `Le fichier est daté ${named}, le mois cible est ${target}.`,
  duplicate: (first: string) => `Doublon dans l'archive : même symbole et unité de temps que ${first.slice(0, 120)} (seul le premier compte).`,
  outsideMonth: (target: string, first: string, last: string) => `Bougies hors du mois cible ${target} (du ${first} au ${last}).`,
  empty: 'Aucune bougie dans le fichier.',
} as const;
