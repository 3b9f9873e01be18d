/**
 * The sandbox spawner's entry (strategies/sandbox/spawner.ts): starts each child the server asks
 * for and hands its three pipes back over the IPC channel, then says how it exited. This process
 * stays small, so that starting a child (a fork of the process that starts it) costs little; the
 * server, hundreds of megabytes, would stop its event loop for the fork of all of them
 * (docs/PERFORMANCE.md, "Strategy sandbox: the API's event loop while a child starts").
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import process from 'node:process';
import { childOptions, type SpawnReply, type SpawnRequest } from './spawner.js';

const children = new Map<number, ChildProcess>();

const send = (reply: SpawnReply, handle?: Socket) => {
  if (process.connected) process.send!(reply, handle);
};

/** Stops this process from reading a pipe it is about to hand over: every byte goes to the server. */
function handOver(stream: Socket): Socket {
  (stream as unknown as { _handle?: { readStop?(): number } })._handle?.readStop?.();
  return stream;
}

process.on('message', (request: SpawnRequest) => {
  let child: ChildProcess;
  try {
    child = spawn(request.file, request.args, childOptions(request));
  } catch (err) {
    send({ id: request.id, kind: 'error', message: String((err as Error).message ?? err) });
    return;
  }
  child.on('error', (err) => send({ id: request.id, kind: 'error', message: err.message }));
  if (child.pid === undefined) return;
  const pid = child.pid;
  children.set(pid, child);
  // In the same turn as the spawn, before this process's event loop could read anything.
  send({ id: request.id, kind: 'stdin', pid }, child.stdin as Socket);
  send({ id: request.id, kind: 'stdout' }, handOver(child.stdout as Socket));
  send({ id: request.id, kind: 'stderr' }, handOver(child.stderr as Socket));
  child.on('exit', (code, signal) => {
    children.delete(pid);
    send({ id: request.id, kind: 'exit', code, signal });
  });
});

// The server is gone (stopped or crashed): what it started goes with it, and so does this process.
process.on('disconnect', () => {
  for (const pid of children.keys()) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  process.exit(0);
});
