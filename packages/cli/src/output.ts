// Terminal output: colour only on a terminal and never with NO_COLOR (https://no-color.org),
// plain aligned tables, JSON documents, output files.
import { RunError, visible } from './errors.js';
import { CLI_VERSION, JSON_SCHEMA_VERSION } from './version.js';

type Stream = { isTTY?: boolean; write(text: string): unknown };

export function colorEnabled(stream: Stream = process.stdout): boolean {
  const env = process.env;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') return true;
  return Boolean(stream.isTTY) && env.TERM !== 'dumb';
}

export interface Styles {
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly red: (text: string) => string;
  readonly green: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly cyan: (text: string) => string;
}

const sgr = (open: number, close: number) => (text: string) => `\x1b[${open}m${text}\x1b[${close}m`;
const plain = (text: string) => text;

export function styles(stream: Stream = process.stdout): Styles {
  if (!colorEnabled(stream)) return { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain };
  return { bold: sgr(1, 22), dim: sgr(2, 22), red: sgr(31, 39), green: sgr(32, 39), yellow: sgr(33, 39), cyan: sgr(36, 39) };
}

const ANSI = /\x1b\[[0-9;]*m/g;
export const visibleWidth = (text: string) => [...text.replace(ANSI, '')].length;

export type Align = 'left' | 'right';

export interface TableOptions {
  /** Per column; default: right for cells that all look numeric, left otherwise. */
  readonly align?: readonly Align[];
  /** Applied to the header row. */
  readonly header?: (text: string) => string;
  /** Left margin. */
  readonly indent?: string;
}

const NUMERIC = /^[-+]?[\d.,]+(%|\s?R|\s?ms)?$|^$/;

/** A cell made safe for a terminal: colours (SGR, what styles() adds) are kept, other control characters escaped. */
const safeCell = (text: string) => text.replace(/\x1b\[[0-9;]*m|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (m) => (m.length > 1 ? m : visible(m)));

/**
 * Columns padded to their widest cell, two spaces apart; numbers right-aligned. Cells often hold
 * what a server or a file says (an admin's e-mail, a data file's name): escaped as warnings are.
 */
export function renderTable(headers: readonly string[], rawRows: readonly (readonly string[])[], options: TableOptions = {}): string {
  const rows = rawRows.map((r) => r.map(safeCell));
  const n = headers.length;
  const widths = headers.map((h, c) => Math.max(visibleWidth(h), ...rows.map((r) => visibleWidth(r[c] ?? ''))));
  const align = options.align ?? headers.map((_, c) => (rows.length > 0 && rows.every((r) => NUMERIC.test((r[c] ?? '').replace(ANSI, ''))) ? 'right' : 'left'));
  const pad = (text: string, c: number) => {
    const gap = ' '.repeat(Math.max(0, widths[c] - visibleWidth(text)));
    return align[c] === 'right' ? gap + text : text + gap;
  };
  const line = (cells: readonly string[]) => (options.indent ?? '') + Array.from({ length: n }, (_, c) => pad(cells[c] ?? '', c)).join('  ').trimEnd();
  const head = line(headers);
  return [options.header ? options.header(head) : head, ...rows.map(line)].join('\n');
}

/** Every `--json` document starts with these fields (docs/cli.md). */
export function jsonHeader(command: string): { command: string; schema_version: number; cli_version: string } {
  return { command, schema_version: JSON_SCHEMA_VERSION, cli_version: CLI_VERSION };
}

export function printJson(document: unknown): void {
  process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
}

export function print(text = ''): void {
  process.stdout.write(`${text}\n`);
}

export { visible };

/** A warning on stderr, so stdout stays clean for pipes. */
export function warn(message: string): void {
  process.stderr.write(`bt: warning: ${visible(message)}\n`);
}

/** 12345 -> "12,345" (English grouping, like the rest of the CLI's text; toLocaleString costs ~20 ms of ICU set-up on first use). */
export const count = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

export const ms = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;

/** A file the command writes (CSV, heatmap), or stdout for `-`; a write failure is a run error naming the path. */
export async function writeOutput(path: string, text: string): Promise<void> {
  if (path === '-') {
    process.stdout.write(text);
    return;
  }
  try {
    // Loaded here, not at the top: this module is on every command's start, the writer only on this path.
    const { writeFileWhole } = await import('@bt/core/node');
    await writeFileWhole(path, text);
  } catch (error) {
    throw new RunError(`cannot write ${path}: ${(error as Error).message}`);
  }
}
