// A bt process ended by Ctrl-C or a kill leaves no hidden temporary file beside an output (decided
// here, docs/cli.md "Files bt writes"): core's writeFileWhole keeps the temporary files it is
// writing (and those the batch workers report), and on SIGINT, SIGTERM or SIGHUP they are removed
// before the process ends with 128 + the signal's number (130, 143, 129), as a shell reports a
// process killed by it; on any other exit (process.exit on the way out) they are removed too. The
// destination itself was never touched: it is replaced only by the final rename.
//
// The handlers are installed only while a temporary file is unfinished. A JavaScript handler runs
// only when the event loop turns, so with handlers always in place a Ctrl-C during a long
// synchronous stretch (an engine run on millions of candles, exceljs parsing a big workbook)
// waited for its end; without one, the signal ends the process at once, as it does any program.
import { constants } from 'node:os';
import { onUnfinishedCount, removeUnfinishedTempFiles } from '@bt/core/node/temp-files';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Installs the handlers' switch once, for the `bt` binary (not for callers that run `main` in their own process). */
export function removeTempFilesWhenInterrupted(): void {
  const handlers = SIGNALS.map((signal) => [signal, () => {
    removeUnfinishedTempFiles();
    process.exit(128 + constants.signals[signal]);
  }] as const);
  let installed = false;
  onUnfinishedCount((count) => {
    if ((count > 0) === installed) return;
    installed = count > 0;
    for (const [signal, handler] of handlers) {
      if (installed) process.on(signal, handler);
      else process.off(signal, handler);
    }
  });
  process.once('exit', () => removeUnfinishedTempFiles());
}
