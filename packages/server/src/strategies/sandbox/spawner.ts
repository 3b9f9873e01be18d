import { fork, spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import type { SandboxCommand } from './isolation.js';

/**
 * Sandbox children are started by a small process of their own, not by the server: on these
 * machines a fork stops the forking process for a time that grows with its memory (about 9 ms
 * per 100 MB, 20 ms for a freshly started server; docs/PERFORMANCE.md, "Strategy sandbox: the
 * API's event loop while a child starts"). The spawner, a few tens of megabytes,
 * forks in a couple of milliseconds and hands each child's pipes back over its IPC channel; the
 * server reads and writes them itself, so the data never passes through the spawner.
 */
const ENTRY = fileURLToPath(new URL(`./spawner-process${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));

/** How every sandbox child starts, in the spawner or here: an empty environment, `/`, its own process group. */
export function childOptions(command: Pick<SandboxCommand, 'uid' | 'gid'>) {
  return { cwd: '/', env: {}, stdio: ['pipe', 'pipe', 'pipe'] as ['pipe', 'pipe', 'pipe'], detached: true, uid: command.uid, gid: command.gid };
}

export interface SpawnRequest {
  id: number;
  file: string;
  args: string[];
  uid?: number;
  gid?: number;
}

export type SpawnReply =
  | { id: number; kind: 'stdin'; pid: number }
  | { id: number; kind: 'stdout' | 'stderr' }
  | { id: number; kind: 'exit'; code: number | null; signal: NodeJS.Signals | null }
  | { id: number; kind: 'error'; message: string };

/**
 * A child started by the spawner, with the surface of a ChildProcess the sandbox uses: its pid
 * (its own process group), its three pipes, 'exit' (code, signal) and 'close' once it exited and
 * both output pipes closed; 'error' when the spawner died before it said how the child ended.
 */
export class SpawnedChild extends EventEmitter {
  exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  private open = 2;
  constructor(
    readonly pid: number,
    readonly stdin: Socket,
    readonly stdout: Socket,
    readonly stderr: Socket,
  ) {
    super();
    // A pipe with nothing in it may have ended and closed before its sibling arrived.
    for (const stream of [stdout, stderr]) {
      if (stream.closed) this.open--;
      else stream.once('close', () => this.closed());
    }
  }

  /** The spawner's word on how the child ended. */
  exited(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exit) return;
    this.exit = { code, signal };
    this.emit('exit', code, signal);
    if (this.open === 0) this.emit('close', code, signal);
  }

  private closed(): void {
    this.open--;
    if (this.open === 0 && this.exit) this.emit('close', this.exit.code, this.exit.signal);
  }
}

interface Pending {
  resolve(child: SpawnedChild): void;
  reject(err: Error): void;
  pid?: number;
  stdin?: Socket;
  stdout?: Socket;
  stderr?: Socket;
  child?: SpawnedChild;
}

export class SandboxSpawner {
  private process: ChildProcess | null = null;
  private readonly calls = new Map<number, Pending>();
  private nextId = 1;
  private stderr = '';

  /** The process that starts the children (tests). */
  get pid(): number | undefined {
    return this.process?.pid;
  }

  /** Starts `command` in the spawner: resolves with its pipes, rejects when it could not start. */
  spawn(command: SandboxCommand): Promise<SpawnedChild> {
    const spawner = this.process ?? this.start();
    const id = this.nextId++;
    return new Promise<SpawnedChild>((resolve, reject) => {
      this.calls.set(id, { resolve, reject });
      this.refWhileBusy();
      spawner.send({ id, file: command.file, args: command.args, uid: command.uid, gid: command.gid } satisfies SpawnRequest, (err) => {
        if (err) this.fail(id, err);
      });
    });
  }

  private start(): ChildProcess {
    // The server's own flags (tsx's loader, conditions) so the entry loads as this module did.
    const execArgv = [...process.execArgv.filter((a) => !/^--(max-old-space-size|inspect|heapsnapshot|cpu-prof)/.test(a)), '--max-old-space-size=64'];
    const spawner = fork(ENTRY, [], { execArgv, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    this.process = spawner;
    this.stderr = '';
    spawner.stderr?.setEncoding('utf8');
    spawner.stderr?.on('data', (chunk: string) => (this.stderr = (this.stderr + chunk).slice(-2000)));
    spawner.on('message', (reply: SpawnReply, handle?: Socket) => this.receive(reply, handle));
    spawner.on('error', () => {});
    spawner.once('exit', (code, signal) => {
      if (this.process === spawner) this.process = null;
      const why = `the sandbox spawner ended (${signal ?? `exit ${code}`})${this.stderr ? `: ${this.stderr.trim().split('\n').at(-1)}` : ''}`;
      for (const id of [...this.calls.keys()]) this.fail(id, new Error(why));
    });
    // Neither the process, its channel nor its stderr keeps the server alive when no call waits.
    spawner.unref();
    (spawner.stderr as Socket | null)?.unref();
    (spawner as unknown as { channel?: { unref(): void } }).channel?.unref();
    return spawner;
  }

  private receive(reply: SpawnReply, handle?: Socket): void {
    const call = this.calls.get(reply.id);
    if (!call) {
      handle?.destroy();
      return;
    }
    switch (reply.kind) {
      case 'stdin':
        call.pid = reply.pid;
        call.stdin = handle;
        break;
      case 'stdout':
        call.stdout = handle;
        break;
      case 'stderr':
        call.stderr = handle;
        break;
      case 'exit':
        this.calls.delete(reply.id);
        this.refWhileBusy();
        call.child?.exited(reply.code, reply.signal);
        return;
      case 'error':
        if (!call.child) this.fail(reply.id, new Error(reply.message));
        return;
    }
    if (!call.child && call.pid !== undefined && call.stdin && call.stdout && call.stderr) {
      call.child = new SpawnedChild(call.pid, call.stdin, call.stdout, call.stderr);
      call.resolve(call.child);
    }
  }

  /** A call the spawner will not finish: refused before its child started, or its child killed and failed after. */
  private fail(id: number, err: Error): void {
    const call = this.calls.get(id);
    if (!call) return;
    this.calls.delete(id);
    this.refWhileBusy();
    if (!call.child) {
      for (const stream of [call.stdin, call.stdout, call.stderr]) stream?.destroy();
      call.reject(err);
      return;
    }
    try {
      process.kill(-call.child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
    call.child.emit('error', err);
  }

  /** The channel keeps the server's process alive only while a call waits on it. */
  private refWhileBusy(): void {
    const channel = (this.process as unknown as { channel?: { ref(): void; unref(): void } } | null)?.channel;
    if (this.calls.size > 0) channel?.ref();
    else channel?.unref();
  }
}

/** What the sandbox needs of a started child: a SpawnedChild, or a ChildProcess under Deno. */
export interface SandboxChild extends EventEmitter {
  readonly pid?: number;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
}

export interface ChildStarter {
  spawn(command: SandboxCommand): Promise<SandboxChild>;
}

/**
 * Deno's Node layer cannot hand a pipe over an IPC channel (the server died at start with `read
 * EBADF`): under Deno the server starts each child itself, as before the spawner.
 */
const inThisProcess: ChildStarter = {
  spawn: async (command) =>
    spawn(command.file, command.args, childOptions(command)),
};

let shared: SandboxSpawner | null = null;

/** The process's spawner, started at its first child (this process itself under Deno). */
export function sandboxSpawner(): ChildStarter {
  if ((process.versions as { deno?: string }).deno) return inThisProcess;
  return (shared ??= new SandboxSpawner());
}
