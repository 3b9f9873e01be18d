// A bt process ended by Ctrl-C or a kill leaves no hidden temporary file beside an output (decided
// here, docs/cli.md "Files bt writes"): core's writeFileWhole keeps the temporary files it is
// writing (and those the batch workers report), and on SIGINT, SIGTERM or SIGHUP they are removed
// before the process ends with 128 + the signal's number (130, 143, 129), as a shell reports a
// process killed by it; on any other exit (process.exit on the way out) they are removed too. The
// destination itself was never touched: it is replaced only by the final rename.
import { constants } from 'node:os';
import { removeUnfinishedTempFiles } from '@bt/core/node/temp-files';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Installs the handlers once, for the `bt` binary (not for callers that run `main` in their own process). */
export function removeTempFilesWhenInterrupted(): void {
  for (const signal of SIGNALS) {
    process.once(signal, () => {
      removeUnfinishedTempFiles();
      process.exit(128 + constants.signals[signal]);
    });
  }
  process.once('exit', () => removeUnfinishedTempFiles());
}
