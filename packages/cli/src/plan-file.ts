// Plan files (batch and golden plans): JSON or YAML, read into plain values. Syntax errors name
// the file, line and column; a missing file is a read error (exit 1), bad content a usage error.
import { extname } from 'node:path';
import { readUserText } from '@bt/core/node';
import { fileError, UsageError } from './errors.js';

/** A plan is a few kilobytes; past this it is not one, and is not read into memory. */
const MAX_PLAN_BYTES = 16 << 20;

function lineColumn(text: string, position: number): { line: number; column: number } {
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  return { line, column: position - before.lastIndexOf('\n') };
}

function parseJson(path: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const at = /at position (\d+)/.exec(message);
    const where = at ? (({ line, column }) => `line ${line}, column ${column}: `)(lineColumn(text, Number(at[1]))) : '';
    throw new UsageError(`invalid plan ${path}: ${where}${message.replace(/ in JSON at position \d+.*$/, '')} (not valid JSON)`);
  }
}

/**
 * A plan is a few levels deep (data → an entry → its fields); thousands of nested brackets are
 * not one, and the code that walks a plan (the YAML parser included) would overflow its stack
 * (`bt: Maximum call stack size exceeded`, exit 1).
 */
const MAX_PLAN_DEPTH = 32;
const tooDeep = (path: string) => new UsageError(`invalid plan ${path}: nested more than ${MAX_PLAN_DEPTH} levels deep (a plan is a few levels of lists and mappings)`);

/** Throws tooDeep when `value` nests lists or objects past MAX_PLAN_DEPTH (walked without recursion). */
function checkDepth(path: string, value: unknown): void {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth > MAX_PLAN_DEPTH) throw tooDeep(path);
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
}

/** The deepest run of brackets `[`/`{` in flow style, outside quotes: checked before the YAML parser recurses into it. */
function flowDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' ) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
    } else if (c === '[' || c === '{') deepest = Math.max(deepest, ++depth);
    else if ((c === ']' || c === '}') && depth > 0) depth--;
  }
  return deepest;
}

async function parseYaml(path: string, text: string): Promise<unknown> {
  if (flowDepth(text) > MAX_PLAN_DEPTH) throw tooDeep(path);
  const { parseDocument } = await import('yaml');
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const error = document.errors[0];
  if (error) {
    // The parser's own recursion, on nesting the bracket count above did not see (block style).
    if (/Maximum call stack/.test(error.message)) throw tooDeep(path);
    const pos = error.linePos?.[0];
    const where = pos ? `line ${pos.line}, column ${pos.col}: ` : '';
    throw new UsageError(`invalid plan ${path}: ${where}${error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')} (not valid YAML)`);
  }
  try {
    // yaml refuses anchors reused past its alias limit (100), which a "billion laughs" plan would
    // expand into gigabytes; a plan never needs them.
    return document.toJS();
  } catch (error) {
    if (error instanceof RangeError) throw tooDeep(path);
    throw new UsageError(`invalid plan ${path}: ${(error as Error).message} (YAML anchors reused too often)`);
  }
}

/** A plan as plain values: `.json` as JSON, `.yaml`/`.yml` (or anything else) as YAML, a superset of JSON. */
export async function readPlanFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readUserText(path, MAX_PLAN_BYTES);
  } catch (error) {
    throw fileError(path, error);
  }
  // A byte order mark, as Windows editors write one, is not part of the plan.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') throw new UsageError(`invalid plan ${path}: the file is empty`);
  const plan = extname(path).toLowerCase() === '.json' ? parseJson(path, text) : await parseYaml(path, text);
  checkDepth(path, plan);
  return plan;
}
