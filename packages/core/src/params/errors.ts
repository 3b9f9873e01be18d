/** How a value appears in a message: strings quoted, everything else as JSON (long values cut). */
export function showValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'number') return String(value);
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * A parameter that cannot be used as given. The message reads `invalid <param>: <value>
 * (expected <what>)` (Observable Plot style); the fields let the server and the CLI report it.
 */
export class ParamError extends Error {
  override readonly name = 'ParamError';
  constructor(
    readonly param: string,
    readonly value: unknown,
    readonly expected: string,
    message = `invalid ${param}: ${showValue(value)} (expected ${expected})`,
  ) {
    super(message);
  }
}
