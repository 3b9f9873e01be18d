// The README's test command: install what the tests need, typecheck every package,
// then run every package's node:test suite.
import { ensureInstall, run } from './ensure-install.mjs';

ensureInstall();
run('npm', ['run', 'typecheck', '--workspaces', '--if-present']);
run('npm', ['run', 'test', '--workspaces', '--if-present']);
