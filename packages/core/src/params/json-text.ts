/**
 * Where JSON text stops being JSON, in words that do not depend on the JavaScript engine: the
 * engine's own message (V8's `Unexpected token 'e', "texte" is not valid JSON`, another runtime's
 * other wording) is neither stable nor translatable, and sometimes has no position. Called only
 * once JSON.parse has refused the text, so valid text costs nothing here. One pass, no recursion
 * (nesting is a stack), whatever the text.
 */
export interface JsonTextError {
  /** 1-based line and column (in characters) of the first character that cannot be JSON there. */
  readonly line: number;
  readonly column: number;
  /** One of the reasons below, in English; `character` is set for `unexpected character`. */
  readonly reason: JsonTextReason;
  readonly character?: string;
}

export type JsonTextReason =
  | 'unexpected end of text'
  | 'unexpected character'
  | 'unterminated string'
  | 'invalid escape in a string'
  | 'control character in a string'
  | 'invalid number'
  | 'text after the JSON value';

/** The first syntax error of `text`, null when it is valid JSON. */
export function jsonTextError(text: string): JsonTextError | null {
  const n = text.length;
  const stack: string[] = [];
  let i = 0;
  type Want = 'value' | 'valueOrClose' | 'key' | 'keyOrClose' | 'colon' | 'next' | 'end';
  let want: Want = 'value';
  const fail = (offset: number, reason: JsonTextReason): JsonTextError => {
    const before = text.slice(0, offset);
    const lineStart = before.lastIndexOf('\n') + 1;
    const line = before.length - before.replaceAll('\n', '').length + 1;
    const column = [...before.slice(lineStart)].length + 1;
    if (reason !== 'unexpected character' || offset >= n) return { line, column, reason: offset >= n && reason === 'unexpected character' ? 'unexpected end of text' : reason };
    return { line, column, reason, character: String.fromCodePoint(text.codePointAt(offset)!) };
  };
  const afterValue = (): Want => (stack.length ? 'next' : 'end');
  // A string from its opening quote: the offset after it, or the error.
  const string = (start: number): number | JsonTextError => {
    let j = start + 1;
    while (j < n) {
      const c = text.charCodeAt(j);
      if (c === 0x22) return j + 1;
      if (c === 0x5c) {
        const e = text[j + 1];
        if (e === undefined) break;
        if ('"\\/bfnrt'.includes(e)) j += 2;
        else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(j + 2, j + 6))) j += 6;
        else return fail(j, 'invalid escape in a string');
      } else if (c < 0x20) return fail(j, 'control character in a string');
      else j++;
    }
    return fail(start, 'unterminated string');
  };
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  while (true) {
    while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
    if (i >= n) return want === 'end' ? null : fail(n, 'unexpected end of text');
    const c = text[i];
    if (want === 'end') return fail(i, 'text after the JSON value');
    if (want === 'colon') {
      if (c !== ':') return fail(i, 'unexpected character');
      i++;
      want = 'value';
      continue;
    }
    if (want === 'next' || ((want === 'keyOrClose' || want === 'valueOrClose') && (c === '}' || c === ']'))) {
      const top = stack[stack.length - 1];
      if (want === 'next' && c === ',') {
        i++;
        want = top === '{' ? 'key' : 'value';
        continue;
      }
      if (c !== (top === '{' ? '}' : ']')) return fail(i, 'unexpected character');
      stack.pop();
      i++;
      want = afterValue();
      continue;
    }
    if (want === 'key' || want === 'keyOrClose') {
      if (c !== '"') return fail(i, 'unexpected character');
      const end = string(i);
      if (typeof end !== 'number') return end;
      i = end;
      want = 'colon';
      continue;
    }
    // A value.
    if (c === '{' || c === '[') {
      stack.push(c);
      i++;
      want = c === '{' ? 'keyOrClose' : 'valueOrClose';
      continue;
    }
    if (c === '"') {
      const end = string(i);
      if (typeof end !== 'number') return end;
      i = end;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (!m) return fail(i, 'invalid number');
      i += m[0].length;
    } else {
      const word = c === 't' ? 'true' : c === 'f' ? 'false' : c === 'n' ? 'null' : '';
      if (!word) return fail(i, 'unexpected character');
      for (let k = 0; k < word.length; k++) if (text[i + k] !== word[k]) return fail(i + k, 'unexpected character');
      i += word.length;
    }
    want = afterValue();
  }
}

/** The error in words (`line 1, column 2: unexpected character 'e'`), for messages; the server translates them. */
export function describeJsonTextError(text: string): string {
  const error = jsonTextError(text);
  if (!error) return 'unreadable JSON';
  const what = error.reason === 'unexpected character' ? `unexpected character ${showCharacter(error.character!)}` : error.reason;
  return `line ${error.line}, column ${error.column}: ${what}`;
}

function showCharacter(character: string): string {
  const code = character.codePointAt(0)!;
  // Control, line-separator and bidirectional characters are named by their code, never shown.
  const hidden = code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029 || code === 0x200e || code === 0x200f || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069) || code === 0xfeff;
  return hidden ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}` : `'${character}'`;
}
