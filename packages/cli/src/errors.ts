// Exit codes (docs/cli.md): 0 success, 1 failed run or bad data, 2 usage error. Every error is
// printed on stderr as `bt: <message>`.

/** The command line (or a plan) asks for something invalid: exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly exitCode = 2;
}

/**
 * A refused value as a message quotes it: a text in double quotes, cut past 80 characters as
 * core's showValue cuts (`"abc...`). An argument can hold 128 KB, and flags quoted all of it back.
 * Paths are not cut (a message names the file whole). Here, not imported from core, because this
 * module loads nothing.
 */
export function quoted(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'number') return String(value);
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** The work could not be done (unreadable file, bad data, failed run, drift): exit 1. */
export class RunError extends Error {
  override readonly name = 'RunError';
  readonly exitCode = 1;
}

/**
 * Runs a check that throws core's `invalid <name>: ...` errors and reports them as usage errors,
 * naming the command-line flag instead of core's option name when one is given.
 */
export function asUsage<T>(check: () => T, flag?: string): T {
  try {
    return check();
  } catch (error) {
    throw usageFrom(error, flag);
  }
}

export function usageFrom(error: unknown, flag?: string): UsageError {
  if (error instanceof UsageError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new UsageError(flag ? message.replace(/^invalid [\w .-]+?:/, `invalid ${flag}:`) : message);
}

/** A file system error as one readable sentence naming the path. */
export function fileError(path: string, error: unknown): RunError {
  // Core's refusal of a device or of a file too big to read whole already says `cannot read PATH: why`
  // (matched by name: importing @bt/core/node here would load it on every command's start).
  if (error instanceof Error && error.name === 'UnreadableFileError') return new RunError(error.message);
  const code = (error as NodeJS.ErrnoException)?.code;
  const why =
    code === 'ENOENT' ? 'no such file' :
    code === 'EACCES' || code === 'EPERM' ? 'permission denied' :
    code === 'EISDIR' ? 'it is a directory' :
    code === 'ENOTDIR' ? 'a parent is not a directory' :
    code === 'ELOOP' ? 'too many levels of symbolic links (a link that leads back to itself?)' :
    (error as Error)?.message ?? String(error);
  return new RunError(`cannot read ${path}: ${why}`);
}

export function isFsError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException)?.code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code) && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}

/** The exit code an error stands for. */
export function exitCodeOf(error: unknown): 1 | 2 {
  return error instanceof UsageError ? 2 : 1;
}

/**
 * Text from a file or a server made safe for a terminal: control characters but line breaks and
 * tabs written as \u001b... A column named "Vol\x1b[2Jume" in a CSV header cleared the screen when
 * its problem was printed (values are quoted by core, column names are not). Here, not in
 * output.ts (which re-exports it), because this module loads nothing.
 */
export function visible(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `bt: <message>` on stderr (a multi-line message keeps its lines). Stack traces only with BT_DEBUG=1. */
export function printError(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  // Control characters (a terminal escape in a file's column name) written as \u001b....
  process.stderr.write(`bt: ${visible(message)}\n`);
  if (process.env.BT_DEBUG && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
}
