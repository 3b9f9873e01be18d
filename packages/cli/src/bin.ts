#!/usr/bin/env node
// `bt`: `--version` answers before anything else is loaded (it is what scripts call most); every
// other invocation builds the commander program, whose commands import their work lazily.
import { CLI_VERSION } from './version.js';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${CLI_VERSION}\n`);
} else {
  // `bt ... | head` closes the pipe early: stop quietly, like other Unix tools.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  const { main } = await import('./program.js');
  process.exitCode = await main(args);
}
