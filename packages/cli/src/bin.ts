#!/usr/bin/env node
// `bt`: `--version` answers before anything else is loaded (it is what scripts call most); every
// other invocation builds the commander program, whose commands import their work lazily.
// No import on this path: the version is inlined by the build.

// `bt ... | head` closes the pipe early: stop quietly, like other Unix tools. Any other failure to
// write the output (a full disk: `bt ... > /dev/full`) is one sentence and exit 1; it was rethrown
// here and printed Node's stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  process.stderr.write(`bt: cannot write to standard output: ${error.code ?? error.message}${error.code === 'ENOSPC' ? ' (no space left on device)' : ''}\n`);
  process.exit(1);
});

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${typeof __BT_VERSION__ === 'string' ? __BT_VERSION__ : '0.0.0-dev'}\n`);
} else {
  const [{ main }, { removeTempFilesWhenInterrupted }] = await Promise.all([import('./program.js'), import('./interrupt.js')]);
  removeTempFilesWhenInterrupted();
  process.exitCode = await main(args);
}
