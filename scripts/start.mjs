// The README's start command: install, build and run the product on the embedded default.
import { ensureInstall, run } from './ensure-install.mjs';

ensureInstall();
run('npm', ['run', 'build']);
console.log('bt: core built (packages/core/dist). The server and web app arrive with their issues.');
