// A process that does nothing but time its own event loop (20 ms resolution): the delays the
// machine's scheduler alone costs a process while a test runs. It prints the longest delay, in
// milliseconds, when its standard input closes (test/support/idle-loop.ts).
import { monitorEventLoopDelay } from 'node:perf_hooks';

const delay = monitorEventLoopDelay({ resolution: 20 });
delay.enable();
process.stdin.resume();
process.stdin.on('end', () => {
  delay.disable();
  process.stdout.write(`${delay.max / 1e6}\n`);
});
process.stdout.write('ready\n');
