import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { sampleCandles } from '../src/strategies/contract.js';
import { RUNNER_DIR } from '../src/strategies/sandbox/isolation.js';
import { PythonSandbox, SandboxError, type SandboxLimits, type SandboxRequest } from '../src/strategies/sandbox/sandbox.js';
import { TEST_DIALECT } from './support/db.js';
import { privateSandbox, survivorsOf, TEST_PYTHON, unisolatedLauncher } from './support/sandbox.js';
import { signalsOfColumns } from '../src/strategies/sandbox/signal-columns.js';

/**
 * Each layer of the sandbox alone (docs/security.md, "The strategy sandbox"): bubblewrap with every
 * Python-level check switched off (the test-only `pythonChecks: 'none'`) still stops file reads,
 * the network, the server's environment and processes that outlive the time limit; and the Python
 * layer without bubblewrap still refuses the known escapes. Controls run the same programs with
 * neither layer, to show the programs really do what they attempt.
 */

/** No database here: the MariaDB pass of the suite would only run the same processes again. */
const ONCE = TEST_DIALECT === 'mysql' ? 'uses no database: runs in the SQLite pass' : false;
const LIMITS: Partial<SandboxLimits> = { cpuSeconds: 1, wallMs: 4000, memoryBytes: 384 * 1024 * 1024, processes: 32 };
const candles = sampleCandles(50);
const meta = { symbol: 'EURUSD', timeframe: 'H1', pip_size: 0.0001 };
const HOSTILE = fileURLToPath(new URL('./fixtures/hostile/', import.meta.url));

let uid: number;
let isolated: PythonSandbox;
let unisolated: PythonSandbox;
let scratch: string;

before(async () => {
  const { uid: id, setup } = await privateSandbox();
  uid = id;
  isolated = new PythonSandbox(setup, { limits: LIMITS, concurrency: 4 });
  unisolated = new PythonSandbox({ ready: true, launcher: unisolatedLauncher() }, { limits: LIMITS, concurrency: 4 });
  scratch = mkdtempSync(join(tmpdir(), 'bt-sandbox-layers-'));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

/** The outcome of a run: its signals and logs, or its refusal code and detail. */
async function outcome(sandbox: PythonSandbox, request: Omit<SandboxRequest, 'mode'> & { mode?: SandboxRequest['mode'] }) {
  try {
    const result = await sandbox.run({ mode: 'run', candles, meta, ...request });
    return { code: 'ran', detail: '', signals: signalsOfColumns(result.signals), logs: result.logs };
  } catch (err) {
    if (!(err instanceof SandboxError)) throw err;
    return { code: err.code, detail: err.detail, signals: [], logs: '' };
  }
}

const PROBE = `import json, os, socket


def detect_probe(candles, params):
    found = {"root": sorted(os.listdir("/")), "environ": dict(os.environ), "hostname": socket.gethostname()}
    for path in params["read"]:
        try:
            with open(path, "rb") as f:
                found[path] = f.read(300).decode("latin-1")
        except Exception as e:
            found[path] = type(e).__name__
    for path in params["write"]:
        try:
            with open(path, "w") as f:
                f.write("pwned")
            found[path] = "written"
        except Exception as e:
            found[path] = type(e).__name__
    for port in params["ports"]:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
            found[port] = "connected"
        except Exception as e:
            found[port] = type(e).__name__
    print(json.dumps(found))
    return []
`;

describe('the OS layer alone: bubblewrap with every Python-level check off', { skip: ONCE }, () => {
  let listener: Server;
  let connections = 0;
  let port = 0;
  before(async () => {
    listener = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as { port: number }).port;
  });
  after(() => new Promise<void>((resolve) => listener.close(() => resolve())));

  it('stops reads outside the sandbox, writes, the network and the server’s environment; without it, the same program gets them', async () => {
    const canary = randomBytes(12).toString('hex');
    process.env.BT_SANDBOX_CANARY = canary;
    const secret = join(scratch, 'secret.txt');
    writeFileSync(secret, canary);
    const params = {
      read: ['/etc/passwd', secret, `/proc/${process.pid}/environ`, '/proc/self/environ', '/proc/1/environ', join(RUNNER_DIR, 'main.py')],
      write: ['/tmp/written', '/written', '/dev/shm/written', '/runner/written', join(scratch, 'written')],
      ports: [port, 3306],
    };
    try {
      const inside = await outcome(isolated, { source: PROBE, params, pythonChecks: 'none' });
      assert.equal(inside.code, 'ran', inside.detail);
      const found = JSON.parse(inside.logs);
      assert.deepEqual(found.root, ['dev', 'lib64', 'runner', 'tmp', 'usr'], 'only the Python runtime, the runner, /dev and /tmp');
      for (const path of params.read) assert.equal(found[path], 'FileNotFoundError', path);
      for (const path of params.write) assert.ok(['OSError', 'PermissionError', 'FileNotFoundError'].includes(found[path]), `${path}: ${found[path]}`);
      assert.equal(found[port], 'ConnectionRefusedError', 'the test’s own listener on 127.0.0.1');
      assert.equal(found[3306], 'ConnectionRefusedError', 'MariaDB on 127.0.0.1:3306');
      assert.equal(connections, 0);
      assert.deepEqual(Object.keys(found.environ), ['PWD']);
      assert.equal(found.hostname, 'sandbox');
      assert.ok(!inside.logs.includes(canary), 'neither the secret file nor the server’s environment leaked');
      assert.ok(!existsSync(join(scratch, 'written')));

      // The control: the same program with neither layer reads the secret and the server’s files.
      const outside = await outcome(unisolated, { source: PROBE, params: { ...params, write: [join(scratch, 'written')], ports: [port] }, pythonChecks: 'none' });
      const control = JSON.parse(outside.logs);
      assert.equal(control[secret], canary);
      assert.match(control['/etc/passwd'], /^root:/);
      assert.equal(control[port], 'connected');
      assert.equal(connections, 1);
      assert.ok(existsSync(join(scratch, 'written')));
    } finally {
      delete process.env.BT_SANDBOX_CANARY;
    }
  });

  const DETACH = (marker: string, then: string) => `import os, sys, time


def detect_detach(candles, params):
    r, w = os.pipe()
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.write(w, str(os.getpid()).encode())
            os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(600)", "${marker}"])
        os._exit(0)
    grandchild = int(os.read(r, 32))
    time.sleep(0.3)
    os.kill(grandchild, 0)
${then}
`;

  it('kills a detached child (setsid, double fork) when the strategy ends, and when the time limit stops it', async () => {
    const ended = await outcome(isolated, { source: DETACH('bt-marker', '    return [(1, "buy")]'), pythonChecks: 'none', limits: { wallMs: 10_000 } });
    assert.equal(ended.code, 'ran', `${ended.code} ${ended.detail}`);
    assert.deepEqual(ended.signals.map((s) => s.index), [1], 'the detached child was alive before the strategy returned');
    assert.deepEqual(await survivorsOf(uid), []);

    const started = performance.now();
    const stopped = await outcome(isolated, { source: DETACH('bt-marker', '    time.sleep(600)'), pythonChecks: 'none', limits: { wallMs: 1500 } });
    assert.equal(stopped.code, 'wall_timeout');
    // Stopped by the 1.5 s limit, not after the 600 s sleep: 60 s leaves a loaded machine time to
    // start bubblewrap and Python and is still ten times short of the sleep.
    assert.ok(performance.now() - started < 60_000);
    assert.deepEqual(await survivorsOf(uid), []);
  });

  it('the control: without bubblewrap the detached child survives the time limit (then the test ends it)', async () => {
    const marker = `bt-survivor-${randomBytes(6).toString('hex')}`;
    const survivors = () => readdirSync('/proc').filter((pid) => {
      try {
        return /^\d+$/.test(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    });
    try {
      // The strategy sleeps once its child is up, so the time limit kills its process group: the
      // child, in a session of its own, is not in it. (A wide limit: the child must be up by then,
      // even on a loaded machine.)
      const stopped = await outcome(unisolated, { source: DETACH(marker, '    time.sleep(600)'), pythonChecks: 'none', limits: { wallMs: 6000 } });
      assert.equal(stopped.code, 'wall_timeout', stopped.detail);
      assert.equal(survivors().length, 1, 'the detached child outlived the kill of its strategy');
    } finally {
      for (const pid of survivors()) process.kill(Number(pid), 'SIGKILL');
    }
  });

  it('contains a fork bomb: the unprivileged user’s process limit holds, nothing is left', async () => {
    const counted = await outcome(isolated, {
      source: 'import os, time\n\ndef detect_forks(candles, params):\n    n = 0\n    try:\n        while True:\n            if os.fork() == 0:\n                time.sleep(30)\n                os._exit(0)\n            n += 1\n    except OSError:\n        return [(n, "buy")]\n',
      pythonChecks: 'none',
    });
    assert.equal(counted.code, 'ran', counted.detail);
    const forks = counted.signals[0].index;
    assert.ok(forks > 0 && forks < 32, `${forks} forks before EAGAIN with RLIMIT_NPROC 32`);
    const bomb = await outcome(isolated, { source: 'import os\n\ndef detect_bomb(candles, params):\n    while True:\n        try:\n            os.fork()\n        except OSError:\n            pass\n', pythonChecks: 'none' });
    assert.ok(['cpu_limit', 'wall_timeout'].includes(bomb.code), `${bomb.code} ${bomb.detail}`);
    assert.deepEqual(await survivorsOf(uid), []);
    // The default: no process at all.
    const none = await outcome(isolated, { source: 'import os\n\ndef detect_fork(candles, params):\n    os.fork()\n    return []\n', pythonChecks: 'none', limits: { processes: 0 } });
    assert.deepEqual([none.code, none.detail], ['runtime_error', 'BlockingIOError: [Errno 11] Resource temporarily unavailable']);
  });
});

/** Escapes of the Python level, run without the static check and without bubblewrap. */
const RUNTIME_ESCAPES: [string, string, string, string][] = [
  ['the reported escape: print’s globals through a class pattern, then its builtins', `def detect_x(candles, params):
    match print:
        case object(__globals__=g):
            g["__builtins__"]["open"]("MARKER", "w")
        case object(func=f):
            f.__self__.open("MARKER", "w")
    return []
`, 'refused_operation', 'open'],
  ['os.system through object’s subclasses', `def detect_x(candles, params):
    for k in ().__class__.__bases__[0].__subclasses__():
        if k.__name__ == "_wrap_close":
            k.__init__.__globals__["system"]("touch MARKER")
    return []
`, 'refused_operation', 'os.system'],
  ['a new import through the real builtins', `def detect_x(candles, params):
    len.__self__.__import__("socket")
    return []
`, 'refused_operation', 'import'],
  ['a fork through the already-loaded os', `def detect_x(candles, params):
    os = [k for k in ().__class__.__bases__[0].__subclasses__() if k.__name__ == "_wrap_close"][0].__init__.__globals__
    os["fork"]()
    return []
`, 'refused_operation', 'os.fork'],
  ['a generator’s frame, up to the runner', `def detect_x(candles, params):
    g = (i for i in [1])
    return [(0, "buy", len(g.gi_frame.f_back.f_globals))]
`, 'refused_operation', 'object.__getattr__'],
  ['a traceback’s frame', `def detect_x(candles, params):
    try:
        1 / 0
    except ZeroDivisionError as e:
        return [(0, "buy", len(e.__traceback__.tb_frame.f_globals))]
`, 'refused_operation', 'object.__getattr__'],
  ['turning the hook off: rebinding what it looks up, then open()', `def detect_x(candles, params):
    b = len.__self__
    wrap = [k for k in ().__class__.__bases__[0].__subclasses__() if k.__name__ == "_wrap_close"][0]
    runner = wrap.__init__.__globals__["sys"].modules["execution"]
    runner.HARMLESS_EVENTS = frozenset(["open", "import", "exec", "compile"])
    runner.REFUSED = ""
    b.next = lambda it, default=None: it
    b.RuntimeError = Warning
    b.open("MARKER", "w")
    return []
`, 'refused_operation', 'open'],
  ['a second audit hook, code compiled from a string, exec', `def detect_x(candles, params):
    b = len.__self__
    b.exec(b.compile("import os", "x", "exec"))
    return []
`, 'refused_operation', 'compile'],
  ['ctypes through the real import', `def detect_x(candles, params):
    len.__self__.__import__("ctypes").CDLL(None).system(b"touch MARKER")
    return []
`, 'refused_operation', 'import'],
];

describe('the Python layer alone: no bubblewrap', { skip: ONCE }, () => {
  const marker = () => join(scratch, 'pwned');

  for (const [what, source, code, detail] of RUNTIME_ESCAPES) {
    it(`refuses ${what} (static check off)`, async () => {
      const got = await outcome(unisolated, { source: source.replaceAll('MARKER', marker()), pythonChecks: 'runtime' });
      assert.equal(got.code, code, got.detail);
      // Code that reached the runner's modules may garble how the refusal is worded, not the refusal.
      assert.ok(got.detail.endsWith(detail), got.detail);
      assert.ok(!existsSync(marker()));
    });
  }

  it('refuses every escape of the hostile corpus with the same code as through bubblewrap', async () => {
    const resourceCodes = /^# import: (contained|cpu_limit|wall_timeout|memory|output_too_large|.*\|)/m;
    const escapes = readdirSync(HOSTILE).filter((name) => name.endsWith('.py')).map((name) => [name, readFileSync(HOSTILE + name, 'utf8')] as const)
      .filter(([, source]) => !resourceCodes.test(source));
    assert.ok(escapes.length >= 35, `${escapes.length} escapes`);
    const sample = sampleCandles(600);
    const queue = [...escapes];
    await Promise.all([1, 2, 3, 4].map(async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [name, source] = next;
        const expected = /^# import: (\S+)/m.exec(source)![1];
        const got = await outcome(unisolated, { source, mode: 'dry_run', candles: sample, lookaheadCuts: [300, 420] });
        assert.equal(got.code, expected, `${name}: ${got.detail}`);
      }
    }));
    assert.ok(!existsSync('/tmp/bt-pwned'));
  });
});

it('the runner files compile as Python with warnings as errors (no Python linter is installed here)', { skip: ONCE }, async () => {
  const { execFileSync } = await import('node:child_process');
  const files = readdirSync(RUNNER_DIR).filter((name) => name.endsWith('.py')).map((name) => join(RUNNER_DIR, name));
  assert.ok(files.length >= 5);
  const script = 'import sys\nfor f in sys.argv[1:]:\n    with open(f) as h:\n        compile(h.read(), f, "exec")\n';
  execFileSync(TEST_PYTHON, ['-I', '-W', 'error', '-c', script, ...files]);
});
