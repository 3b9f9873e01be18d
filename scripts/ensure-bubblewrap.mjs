// The strategy sandbox runs every Python child inside bubblewrap (docs/security.md, "The strategy
// sandbox"). `npm test` needs it (installed with apt-get as root, else it stops); `npm start` installs
// it the same way but starts without it: the server then refuses .py imports and AI generation and
// says why. STRATEGY_BWRAP names another binary.
import { fileURLToPath } from 'node:url';
import { ensureAptPackage } from './apt-package.mjs';

export const bubblewrapPath = () => process.env.STRATEGY_BWRAP || '/usr/bin/bwrap';

/** The path of bwrap, or null (with a line saying why) when `required` is false and it cannot be had. */
export function ensureBubblewrap({ required }) {
  const found = ensureAptPackage({
    path: bubblewrapPath(),
    pkg: 'bubblewrap',
    purpose: 'Personal strategies (.py) run isolated by bubblewrap',
    overridden: !!process.env.STRATEGY_BWRAP,
    override: 'STRATEGY_BWRAP to a bwrap binary',
  });
  if (!found.problem) return found.path;
  console.error(found.problem);
  if (required) process.exit(1);
  console.error('bt: starting without it: .py imports and AI generation will be refused.');
  return null;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(`bt: bubblewrap at ${ensureBubblewrap({ required: true })}`);
