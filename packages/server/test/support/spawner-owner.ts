// Run as a process of its own by test/sandbox-spawner.test.ts: starts a long child through the
// sandbox spawner, prints the spawner's and the child's pids as JSON, then waits to be killed. The
// test kills it and checks that neither the spawner nor the child outlives it.
import { SandboxSpawner } from '../../src/strategies/sandbox/spawner.js';

const spawner = new SandboxSpawner();
const child = await spawner.spawn({ file: '/bin/sh', args: ['-c', 'read line'] });
process.stdout.write(`${JSON.stringify({ spawner: spawner.pid, child: child.pid })}\n`);
setInterval(() => {}, 1000);
