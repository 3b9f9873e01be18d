#!/usr/bin/env node
// `bt`: `--version` answers before anything else is loaded (it is what scripts call most); every
// other invocation builds the commander program, whose commands import their work lazily.
// No import on this path: the version is inlined by the build.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${typeof __BT_VERSION__ === 'string' ? __BT_VERSION__ : '0.0.0-dev'}\n`);
} else {
  // `bt ... | head` closes the pipe early: stop quietly, like other Unix tools.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  const { main } = await import('./program.js');
  process.exitCode = await main(args);
}
