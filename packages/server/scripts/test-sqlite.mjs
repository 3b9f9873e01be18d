// The server's suite on SQLite, the embedded default (`npm run test`; docs/development.md, "The test
// command"): every test file, on compiled JavaScript (scripts/compiled-suite.mjs), most of them
// several to a process (scripts/suite-files.mjs), two processes at a time. One file alone still
// runs from the sources: `npx tsx --conditions=@bt/source --test test/X.test.ts`.
import { fileURLToPath } from 'node:url';
import { runCompiledSuite } from '../../../scripts/compiled-suite.mjs';
import { SHARED, serverTestFiles } from './suite-files.mjs';

const cwd = fileURLToPath(new URL('..', import.meta.url));
const files = serverTestFiles().map((name) => `test/${name}`);
process.exit(await runCompiledSuite(['--compile', 'core,server', '--test-concurrency=2', ...files], { cwd, shared: SHARED }));
