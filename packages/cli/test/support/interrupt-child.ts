// A process with the bt binary's signal handling (src/interrupt.ts) that says `ready` and then
// either spins synchronously (`busy`) or, with a temporary file recorded, waits (`writing FILE`).
import { writeFileSync } from 'node:fs';
import { trackTempFile } from '@bt/core/node/temp-files';
import { removeTempFilesWhenInterrupted } from '../../src/interrupt.js';

removeTempFilesWhenInterrupted();
const [mode, file] = process.argv.slice(2);
if (mode === 'writing') {
  writeFileSync(file, 'half');
  trackTempFile(file, true);
  process.stdout.write('ready\n');
  setTimeout(() => process.exit(0), 20_000);
} else {
  process.stdout.write('ready\n');
  const end = Date.now() + 15_000;
  while (Date.now() < end);
  process.exit(0);
}
