/** The output import's form rules (docs/admin.md "Import rules"), apart from React for the tests. */
export type ImportMode = 'skip' | 'overwrite';
export type ImportState = 'idle' | 'simulating' | 'executing';

/** The default target month: this month in UTC, `YYYY-MM`. */
export function currentMonth(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 7);
}

export function isMonth(text: string): boolean {
  return /^\d{4}-(0[1-9]|1[0-2])$/.test(text);
}

/** Which state a submission puts the form in. */
export function stateFor(dryRun: boolean): ImportState {
  return dryRun ? 'simulating' : 'executing';
}

/** The form's refusal before any call, or null: a ZIP or a URL is required. */
export function importProblem(file: File | Blob | null | undefined, url: string): string | null {
  if (!file && url.trim() === '') return 'Fournis un ZIP (fichier) ou une URL.';
  return null;
}

/** An import that overwrites library months for real (not a dry run) is confirmed first (docs/admin.md "Import rules"). */
export function needsConfirmation(mode: ImportMode, dryRun: boolean): boolean {
  return mode === 'overwrite' && !dryRun;
}
