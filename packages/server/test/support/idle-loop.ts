import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./idle-loop.mjs', import.meta.url));

/**
 * Starts the idle control (idle-loop.mjs) and answers once it times its loop; `stop()` answers the
 * longest delay it saw, in milliseconds. A test that bounds its own event loop's stalls judges them
 * beside it: what a loaded machine withholds from every process is not the code's doing. (The load
 * test's idle role, bench/load/process.ts, measures the same under tsx with the harness's protocol.)
 */
export async function startIdleLoop(): Promise<{ stop(): Promise<number> }> {
  const child = spawn(process.execPath, [SCRIPT], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  let out = '';
  child.stdout.setEncoding('utf8');
  // Ready on its first line; a control that ends before it fails the start instead of hanging it.
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('ready\n')) resolve();
    });
    void exited.then(([code, signal]) => reject(new Error(`the idle control ended before it was ready (${signal ?? `exit ${code}`})`)));
  });
  return {
    async stop() {
      child.stdin.end();
      await exited;
      const max = Number(out.split('\n')[1]);
      if (!Number.isFinite(max)) throw new Error(`the idle control answered ${JSON.stringify(out)}`);
      return max;
    },
  };
}
