// `bt validate FILE...`: core's reader on each file; problems and warnings listed with line,
// column and fix. Exit 1 when any file cannot be loaded.
import { CandleFileError, type CandleProblem } from '@bt/core/candles';
import { loadData } from '../data.js';
import { fileError, isFsError } from '../errors.js';
import { parsePositiveInt, readOptions } from '../options.js';
import { count, jsonHeader, print, printJson, styles, visible } from '../output.js';

/** The flags of the command (commands/validate.ts declares them). */
export interface ValidateFlags {
  json?: boolean;
  maxProblems?: string;
  symbol?: string;
  timeframe?: string;
  format?: string;
  utcOffset?: string;
  duplicates?: string;
}

interface FileReport {
  path: string;
  ok: boolean;
  format: string | null;
  candles: number | null;
  symbol: string | null;
  timeframe: string | null;
  first: string | null;
  last: string | null;
  problems: CandleProblem[];
  omitted: number;
  warnings: CandleProblem[];
  error: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

async function check(path: string, flags: ValidateFlags, maxProblems: number): Promise<FileReport> {
  const empty = { format: null, candles: null, symbol: null, timeframe: null, first: null, last: null, warnings: [], omitted: 0 };
  try {
    const data = await loadData(path, flags, { maxProblems });
    const { candles } = data.file;
    return {
      path, ok: true, format: data.file.format, candles: candles.length, symbol: data.symbol ?? null, timeframe: data.timeframe ?? null,
      first: candles.length ? iso(candles.time[0]) : null, last: candles.length ? iso(candles.time[candles.length - 1]) : null,
      problems: [], omitted: 0, warnings: [...data.file.warnings], error: null,
    };
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause ?? error;
    if (cause instanceof CandleFileError) return { path, ok: false, ...empty, problems: [...cause.problems], omitted: cause.omitted, error: null };
    const message = isFsError(cause) ? fileError(path, cause).message : (error as Error).message;
    return { path, ok: false, ...empty, problems: [], error: message };
  }
}

export async function validateCommand(files: string[], flags: ValidateFlags): Promise<void> {
  readOptions(flags);
  const maxProblems = parsePositiveInt('--max-problems', flags.maxProblems ?? '1000');
  const reports: FileReport[] = [];
  for (const path of files) reports.push(await check(path, flags, maxProblems));
  const bad = reports.filter((r) => !r.ok).length;
  if (flags.json) {
    printJson({ ...jsonHeader('validate'), valid: reports.length - bad, invalid: bad, files: reports });
  } else {
    const s = styles();
    for (const r of reports) {
      if (r.ok) {
        print(`${s.green('ok')}    ${r.path}: ${count(r.candles!)} candles, ${r.timeframe ?? 'no timeframe'}, ${r.symbol ?? 'symbol unknown'}, ${r.first} → ${r.last} (${r.format})`);
      } else if (r.error) {
        print(`${s.red('FAIL')}  ${r.path}: ${visible(r.error)}`);
      } else {
        const total = r.problems.length + r.omitted;
        print(`${s.red('FAIL')}  ${r.path}: ${total} problem${total === 1 ? '' : 's'}`);
        for (const p of r.problems) print(`      ${visible(p.message)}\n        ${s.dim(`fix: ${visible(p.fix)}`)}`);
        if (r.omitted > 0) print(`      … and ${r.omitted} more problem${r.omitted === 1 ? '' : 's'} not listed (at most 5 of a kind, --max-problems in all)`);
      }
      for (const w of r.warnings) print(`      ${s.yellow('warning:')} ${visible(w.message)}`);
    }
  }
  if (bad > 0) {
    process.stderr.write(`bt: ${bad} of ${reports.length} file${reports.length === 1 ? '' : 's'} cannot be used\n`);
    process.exitCode = 1;
  }
}
