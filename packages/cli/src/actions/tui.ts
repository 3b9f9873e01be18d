// `bt tui`: the Ink app on a real terminal. Flags are checked first, so a typo or a missing file is
// reported like in any other command, before the screen is taken over.
import { stat } from 'node:fs/promises';
import { fileError, RunError, UsageError } from '../errors.js';
import { readOptions } from '../options.js';

/** The flags of the command (commands/tui.ts declares them). */
export interface TuiFlags {
  data?: string;
  dir: string;
  utcOffset?: string;
}

export async function tuiCommand(flags: TuiFlags): Promise<void> {
  const read = readOptions({ utcOffset: flags.utcOffset });
  for (const [path, kind] of [[flags.dir, 'folder'], [flags.data, 'file']] as const) {
    if (path === undefined) continue;
    try {
      const info = await stat(path);
      if (kind === 'folder' ? !info.isDirectory() : !info.isFile()) throw new RunError(`cannot read ${path}: not a ${kind}`);
    } catch (error) {
      throw error instanceof RunError ? error : fileError(path, error);
    }
  }
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new UsageError('bt tui needs an interactive terminal (stdin and stdout must be a TTY); for scripts use bt backtest');
  }
  const [{ render }, { createElement }, { App }, { realDeps }] = await Promise.all([import('ink'), import('react'), import('../tui/app.js'), import('../tui/deps.js')]);
  const instance = render(createElement(App, { deps: realDeps(read), dir: flags.dir, data: flags.data }), { exitOnCtrlC: true });
  await instance.waitUntilExit();
}
