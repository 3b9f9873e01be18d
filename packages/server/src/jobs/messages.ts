/** What a user reads when the job queue cannot give a backtest's answer (docs/queue.md). */
export const JOB_MESSAGES = {
  unavailable: 'Le service de calcul des backtests est momentanément indisponible : réessaie dans un instant. Aucun crédit n’a été débité.',
  timeout: 'Le backtest n’a pas pu être calculé à temps (file d’attente chargée) : réessaie dans un instant. Aucun crédit n’a été débité.',
  failed: 'Le calcul du backtest a échoué. Aucun crédit n’a été débité.',
  givenUp: 'Le calcul du backtest a été abandonné. Aucun crédit n’a été débité.',
  doneLate: 'Le backtest est terminé, mais sa réponse n’a pas pu être transmise : retrouve-le dans tes résultats.',
} as const;

/** The same for an extraction (the CSV shop): it is charged only once its file exists, so a failure costs nothing. */
export const EXTRACTION_MESSAGES = {
  unavailable: 'Le service d’extraction des CSV est momentanément indisponible : réessaie dans un instant. Aucun crédit n’a été débité.',
  timeout: 'L’extraction n’a pas pu être préparée à temps (file d’attente chargée) : réessaie dans un instant. Aucun crédit n’a été débité.',
  failed: 'L’extraction a échoué. Aucun crédit n’a été débité.',
} as const;
