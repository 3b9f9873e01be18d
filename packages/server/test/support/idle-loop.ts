import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./idle-loop.mjs', import.meta.url));

/**
 * Starts the idle control (idle-loop.mjs) and answers once it times its loop; `stop()` answers the
 * longest delay it saw, in milliseconds. A test that bounds its own event loop's stalls judges them
 * beside it: what a loaded machine withholds from every process is not the code's doing.
 */
export async function startIdleLoop(): Promise<{ stop(): Promise<number> }> {
  const child = spawn(process.execPath, [SCRIPT], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => (out += chunk));
  while (!out.includes('ready\n')) await once(child.stdout, 'data');
  return {
    async stop() {
      const exited = once(child, 'exit');
      child.stdin.end();
      await exited;
      const max = Number(out.split('\n')[1]);
      if (!Number.isFinite(max)) throw new Error(`the idle control answered ${JSON.stringify(out)}`);
      return max;
    },
  };
}
