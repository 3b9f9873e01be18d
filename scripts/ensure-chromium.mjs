// The browser tests drive Debian's Chromium through playwright-core, never a downloaded browser
// (docs/development.md, "Services the tests use"). Missing and running as root with apt-get: install the
// distribution's package; otherwise stop with what to do. BT_CHROMIUM names another binary.
import { fileURLToPath } from 'node:url';
import { ensureAptPackage } from './apt-package.mjs';

export const chromiumPath = () => process.env.BT_CHROMIUM || '/usr/bin/chromium';

export function ensureChromium() {
  const found = ensureAptPackage({
    path: chromiumPath(),
    pkg: 'chromium',
    purpose: "The browser tests need Debian's Chromium",
    overridden: !!process.env.BT_CHROMIUM,
    override: 'BT_CHROMIUM to a Chromium binary',
  });
  if (found.problem) {
    console.error(found.problem);
    process.exit(1);
  }
  return found.path;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(`bt: Chromium at ${ensureChromium()}`);
