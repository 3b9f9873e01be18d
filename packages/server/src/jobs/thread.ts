import { ParamError } from '@bt/core/params';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { monthFilesOf, type MonthFile, type MonthFilesTask } from '../datasets/month-files.js';
import { workbookText, type WorkbookText } from '../results/workbook-text.js';
import { decodeSandboxAnswer, encodeSandboxInput, type DecodedAnswer, type ExpectedSignals, type SandboxInputHeader } from '../strategies/sandbox/codec.js';
import { signalBuffers } from '../strategies/sandbox/signal-columns.js';
import type { CreditNoteContent, InvoiceContent } from '../payments/invoice-content.js';
import { renderInvoicePdf } from '../payments/invoice-pdf.js';
import { csvOfColumns, ownBytes, paramErrorShape, runEngineOnColumns, type CandleColumnsCopy, type EngineOutput, type EngineRequest, type ParamErrorShape } from './task.js';

/**
 * What the pool hands a thread: a backtest (engine + workbook), an extraction's CSV to format,
 * the library's month files of an import (CSV + IPC + checksum, src/datasets/month-files.ts), or
 * a result's workbook to parse (src/results/workbook-text.ts), or a personal strategy's sandbox
 * request to write or answer to read (src/strategies/sandbox/codec.ts), or an invoice's or credit
 * note's PDF to draw (src/payments/invoice-pdf.ts).
 */
export type ThreadTask =
  | { kind: 'backtest'; columns: CandleColumnsCopy; request: EngineRequest }
  | { kind: 'csv'; columns: CandleColumnsCopy }
  | ({ kind: 'month-files' } & MonthFilesTask)
  | { kind: 'workbook'; bytes: Uint8Array }
  | { kind: 'sandbox-input'; header: SandboxInputHeader; columns?: CandleColumnsCopy; meta?: Record<string, string | number> }
  | { kind: 'sandbox-answer'; stdout: Uint8Array; expected: ExpectedSignals }
  | { kind: 'invoice-pdf'; content: InvoiceContent | CreditNoteContent };

export type ThreadAnswer = { output: EngineOutput } | { paramError: ParamErrorShape };

/**
 * The engine pool's worker entry (piscina calls the default export with each task). A parameter
 * the engine refuses comes back as data: an error's class does not cross a thread, and the API
 * answers it with a 400 (any other error stays an error). A CSV comes back as its bytes, moved
 * (transferred, not copied: up to tens of MB for a year of M5), and so do month files' bytes.
 */
export default async function run(task: ThreadTask): Promise<ThreadAnswer | Uint8Array | MonthFile[] | WorkbookText | DecodedAnswer> {
  if (task.kind === 'workbook') return workbookText(task.bytes);
  if (task.kind === 'invoice-pdf') {
    return move(ownBytes(await renderInvoicePdf(task.content))) as Uint8Array;
  }
  if (task.kind === 'sandbox-input') return move(encodeSandboxInput(task)) as Uint8Array;
  if (task.kind === 'sandbox-answer') {
    const answer = decodeSandboxAnswer(task.stdout, task.expected);
    return answer.kind === 'ok' ? (move({ [transferableSymbol]: signalBuffers(answer.signals), [valueSymbol]: answer } as never) as unknown as DecodedAnswer) : answer;
  }
  if (task.kind === 'csv') return move(csvOfColumns(task.columns)) as Uint8Array;
  if (task.kind === 'month-files') {
    const files = monthFilesOf(task);
    const buffers = new Set(files.flatMap((f) => [f.csv.buffer, f.ipc.buffer]));
    return move({ [transferableSymbol]: [...buffers], [valueSymbol]: files } as never) as unknown as MonthFile[];
  }
  try {
    return { output: await runEngineOnColumns(task.columns, task.request) };
  } catch (err) {
    if (err instanceof ParamError) return { paramError: paramErrorShape(err) };
    throw err;
  }
}
