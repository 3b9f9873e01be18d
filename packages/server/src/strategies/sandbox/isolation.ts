import { execFile } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { chmod, copyFile, mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

/**
 * Where the strategy sandbox's Python runs (docs/security.md, "The strategy sandbox"): each child
 * inside bubblewrap, in its own user, pid, network, mount, IPC and UTS namespaces, seeing only the
 * Python runtime and the runner, read-only, as an unprivileged user outside the sandbox too.
 */

/** The runner's Python files, beside this module in src/ and copied beside it into dist/ by the build. */
export const RUNNER_DIR = fileURLToPath(new URL('./runner/', import.meta.url)).replace(/\/$/, '');
/** Where the runner is mounted inside the sandbox. */
const RUNNER_MOUNT = '/runner';
export const DEFAULT_BWRAP = '/usr/bin/bwrap';
/** The user and group outside the sandbox when the server runs as root ("nobody" on Debian). */
export const DEFAULT_SANDBOX_ID = 65534;

/** What probe.py reports of an interpreter: the files the sandbox must show. */
export interface PythonRuntime {
  executable: string;
  version: number[];
  stdlib: string[];
  /** The executable's dynamic loader (its ELF PT_INTERP), null for a static binary. */
  interpreter: string | null;
  libraries: string[];
}

/** How one sandbox child is started. */
export interface SandboxCommand {
  file: string;
  args: string[];
  /** The ids the child is started with (only set when the server runs as root). */
  uid?: number;
  gid?: number;
}

export interface SandboxLauncher {
  /** For the start-up line of the server. */
  readonly description: string;
  command(): SandboxCommand;
}

/** Ready, or why strategies are refused (the French sentence depends on which is missing). */
export type SandboxSetup =
  | { ready: true; launcher: SandboxLauncher }
  | { ready: false; missing: 'python' | 'isolation'; reason: string };

function execText(file: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${(stderr || err.message).trim().split('\n').at(-1)}`));
      else resolve(stdout);
    });
  });
}

/**
 * The interpreter's files, from probe.py run by `command` (a path or a name on PATH) with the
 * server's environment. Our own fixed script, no user input: the only Python run unsandboxed.
 */
export async function probePython(command: string, runnerDir = RUNNER_DIR): Promise<PythonRuntime | string> {
  try {
    const runtime = JSON.parse(await execText(command, ['-I', '-S', '-B', join(runnerDir, 'probe.py')], 20_000)) as PythonRuntime;
    const [major, minor] = runtime.version;
    // match statements (and the MatchClass checks) need 3.10.
    if (major !== 3 || minor < 10) return `${command} is Python ${runtime.version.join('.')}, 3.10 or later is needed`;
    return runtime;
  } catch (err) {
    return `${command} could not be run (${(err as Error).message})`;
  }
}

export interface BwrapOptions {
  bwrap: string;
  /** Ids outside the sandbox when the server is root (RLIMIT_NPROC does nothing for uid 0). */
  uid: number;
  gid: number;
  runnerDir: string;
}

/** The bubblewrap command line of one sandbox child. */
export class BwrapLauncher implements SandboxLauncher {
  private readonly args: string[];
  private readonly ids: { uid?: number; gid?: number };

  constructor(private readonly runtime: PythonRuntime, private readonly options: BwrapOptions) {
    const bind = (path: string, at = path) => ['--ro-bind', path, at];
    this.args = [
      // Every namespace (user, pid, network, IPC, UTS, cgroup, mount); no user namespace inside
      // it; its own session (no TIOCSTI on the server's terminal); killed with its parent.
      '--unshare-all', '--unshare-user', '--disable-userns', '--new-session', '--die-with-parent',
      '--uid', '65534', '--gid', '65534', '--hostname', 'sandbox',
      '--clearenv', '--chdir', '/',
      ...bind(runtime.executable),
      ...runtime.stdlib.flatMap((dir) => bind(dir)),
      ...(runtime.interpreter ? bind(runtime.interpreter) : []),
      ...runtime.libraries.flatMap((lib) => bind(lib)),
      ...bind(options.runnerDir, RUNNER_MOUNT),
      '--dev', '/dev',
      '--tmpfs', '/tmp',
      // Nothing writable: a private /tmp, /dev and the root itself read-only (empty files would
      // still cost kernel memory with RLIMIT_FSIZE at 0).
      '--remount-ro', '/tmp', '--remount-ro', '/dev', '--remount-ro', '/',
      '--', runtime.executable, '-I', '-S', '-B', `${RUNNER_MOUNT}/main.py`,
    ];
    const root = typeof process.getuid === 'function' && process.getuid() === 0;
    this.ids = root ? { uid: options.uid, gid: options.gid } : {};
  }

  get description(): string {
    const who = this.ids.uid !== undefined ? `uid ${this.ids.uid}` : 'the server\'s user';
    const runner = this.options.runnerDir === RUNNER_DIR ? '' : `, runner copied to ${this.options.runnerDir}`;
    return `bubblewrap ${this.options.bwrap}, Python ${this.runtime.version.join('.')} (${this.runtime.executable}) as ${who}${runner}`;
  }

  command(): SandboxCommand {
    return { file: this.options.bwrap, args: this.args, ...this.ids };
  }
}

/**
 * A copy of the runner readable by the sandbox's user, for a checkout it cannot read (a clone
 * under /root): files 0644 in a 0755 folder of the temporary directory, removed when the server exits.
 */
export async function stageRunner(runnerDir = RUNNER_DIR): Promise<string> {
  const staged = await mkdtemp(join(tmpdir(), 'bt-runner-'));
  await chmod(staged, 0o755);
  for (const name of await readdir(runnerDir)) {
    if (!name.endsWith('.py')) continue;
    await copyFile(join(runnerDir, name), join(staged, name));
    await chmod(join(staged, name), 0o644);
  }
  process.once('exit', () => rmSync(staged, { recursive: true, force: true }));
  return staged;
}

export interface PrepareOptions {
  python: string;
  bwrap?: string;
  uid?: number;
  gid?: number;
  /** The runner's folder (the package's own unless a test says otherwise). */
  runnerDir?: string;
  /** Runs one trivial strategy through the launcher: null when the sandbox answers, else why not. */
  selfTest: (launcher: SandboxLauncher) => Promise<string | null>;
}

/**
 * Finds the interpreter, checks bubblewrap is there and works (the self-test runs a trivial
 * strategy through it), and answers what the server must refuse when it does not: strategies
 * never run unisolated.
 */
export async function prepareSandbox(options: PrepareOptions): Promise<SandboxSetup> {
  const runtime = await probePython(options.python);
  if (typeof runtime === 'string') return { ready: false, missing: 'python', reason: runtime };
  const bwrap = options.bwrap ?? DEFAULT_BWRAP;
  if (!existsSync(bwrap)) return { ready: false, missing: 'isolation', reason: `bubblewrap not found at ${bwrap} (apt-get install bubblewrap)` };
  const ids = { uid: options.uid ?? DEFAULT_SANDBOX_ID, gid: options.gid ?? DEFAULT_SANDBOX_ID };
  const runnerDir = options.runnerDir ?? RUNNER_DIR;
  let launcher = new BwrapLauncher(runtime, { bwrap, ...ids, runnerDir });
  let failure = await options.selfTest(launcher);
  if (failure && /Can't find source path|Permission denied/i.test(failure)) {
    launcher = new BwrapLauncher(runtime, { bwrap, ...ids, runnerDir: await stageRunner(runnerDir) });
    failure = await options.selfTest(launcher);
  }
  if (failure) return { ready: false, missing: 'isolation', reason: `the bubblewrap self-test failed: ${failure}` };
  return { ready: true, launcher };
}
