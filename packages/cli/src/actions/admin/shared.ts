// What every `bt admin` command shares: the connection, whole-number flags, confirmation, output.
import { AdminClient, connectionOf, lastAnswer, unreadableAnswerError, type ConnectionFlags } from '../../admin/client.js';
import { quoted, UsageError } from '../../errors.js';
import { jsonHeader, printJson } from '../../output.js';

export interface AdminFlags extends ConnectionFlags {
  json?: boolean;
}

export function clientOf(flags: ConnectionFlags): AdminClient {
  return new AdminClient(connectionOf(flags));
}

/**
 * A JavaScript TypeError after the server answered (a field the client's shape did not check)
 * means its answer has another shape than this bt reads (most likely another version of the
 * server): said so, naming the call, exit 1.
 */
export function unreadableAnswer(error: unknown): unknown {
  if (!(error instanceof TypeError) || !lastAnswer.path) return error;
  return unreadableAnswerError(lastAnswer.api, lastAnswer.path, error.message);
}

/** A whole number flag within bounds (a usage error naming the flag otherwise). */
export function wholeNumber(flag: string, text: string | undefined, min: number, max: number, fallback?: number): number {
  if (text === undefined) {
    if (fallback === undefined) throw new UsageError(`missing ${flag}`);
    return fallback;
  }
  const n = Number(text);
  if (!/^\s*\d+\s*$/.test(text) || !Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`invalid ${flag}: ${quoted(text)} (expected a whole number from ${min} to ${max})`);
  return n;
}

export function userIdOf(text: string): number {
  const id = Number(text);
  if (!/^\s*\d+\s*$/.test(text) || !Number.isSafeInteger(id) || id < 1) throw new UsageError(`invalid <user-id>: ${quoted(text)} (expected a user id, a whole number ≥ 1; see bt admin users)`);
  return id;
}

/** Destructive actions run only with --yes (scripts say so explicitly; nothing is asked interactively). */
export function confirmed(flags: { yes?: boolean }, what: string): void {
  if (!flags.yes) throw new UsageError(`${what} cannot be undone: add --yes to confirm`);
}

/** `--json`: the server's answer under the CLI's JSON header (docs/cli.md "JSON outputs"). */
export function printAnswer(command: string, answer: object): void {
  printJson({ ...jsonHeader(`admin ${command}`), ...answer });
}

/** A cell of a generic table: numbers as they are, lists joined, nothing as '-'. */
export function cell(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  if (Array.isArray(value)) return value.join(' ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
