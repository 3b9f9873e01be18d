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

async function parseYaml(path: string, text: string): Promise<unknown> {
  const { parseDocument } = await import('yaml');
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const error = document.errors[0];
  if (error) {
    const pos = error.linePos?.[0];
    const where = pos ? `line ${pos.line}, column ${pos.col}: ` : '';
    throw new UsageError(`invalid plan ${path}: ${where}${error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')} (not valid YAML)`);
  }
  try {
    // yaml refuses anchors reused past its alias limit (100), which a "billion laughs" plan would
    // expand into gigabytes; a plan never needs them.
    return document.toJS();
  } catch (error) {
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
  if (text.trim() === '') throw new UsageError(`invalid plan ${path}: the file is empty`);
  return extname(path).toLowerCase() === '.json' ? parseJson(path, text) : parseYaml(path, text);
}
