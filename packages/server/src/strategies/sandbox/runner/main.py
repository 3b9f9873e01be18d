"""The strategy sandbox's runner: one JSON request on stdin, one JSON answer on stdout.

Started by the server as `python3 -I -S -B main.py` inside bubblewrap, with an empty environment
(docs/security.md, "The strategy sandbox"). Everything the user's code may import is loaded, and
every resource limit set, before that code runs; the audit hook arms itself then and stays armed.
The strategy's print() goes to fd 2, which the server reads and caps.
"""
import itertools
import json
import os
import resource
import sys
import time

sys.path.append(os.path.dirname(os.path.abspath(__file__)))

import execution  # noqa: E402
import signals  # noqa: E402
import static_check  # noqa: E402
from refusal import Refusal, fail  # noqa: E402


def set_limits(limits):
    cpu = limits['cpu_seconds']
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    resource.setrlimit(resource.RLIMIT_AS, (limits['memory_bytes'], limits['memory_bytes']))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NOFILE, (16, 16))
    # Counted per user id outside the sandbox: the server runs it as an unprivileged user (the
    # kernel does not apply this limit to root).
    processes = limits.get('processes', 0)
    resource.setrlimit(resource.RLIMIT_NPROC, (processes, processes))


def run(program, info, request, limits):
    """The signals on the whole data and, for a dry run, on each look-ahead cut."""
    data = request['candles']
    params = request.get('params') or {}
    cuts = (request.get('lookahead_cuts') or []) if request['mode'] == 'dry_run' else []
    # ENTRY_MODE = "pullback": the engine rests an order in each signal's zone, so one without a
    # zone is refused here, at import, not first found by a paid backtest.
    zone_required = request.get('zone_required') is True

    def call(length=None):
        candles = signals.columns(data, length)
        n = len(candles['close'])
        return program.call(info['function'], candles, dict(params), lambda raw: signals.normalize(raw, n, limits['max_signals'], zone_required))

    program.arm(1 + len(cuts))
    found = call()
    # No look-ahead: the signals before a cut must not change when the candles after it are
    # removed (a signal at i may only use candles <= i). Several cuts, since one cut only catches
    # a peek whose answer happens to differ there.
    for cut in cuts:
        early = call(cut)
        full = [s for s in found if s['index'] < cut]
        if early != full:
            for a, b in itertools.zip_longest(full, early):
                if a != b:
                    where = (a or b)['index']
                    fail('lookahead', str(where), None, index=where, cut=cut)
    return found


def main():
    answer_stream = sys.stdout.buffer
    log = execution.log_stream()
    sys.stdout = sys.stderr = log
    started = time.perf_counter()
    answer = {'ok': True}
    try:
        execution.load_allowed_modules()
        request = json.loads(sys.stdin.buffer.read())
        limits = request['limits']
        # 'all' in production; 'runtime' (no static check) and 'none' (no Python-level check at
        # all) only in the server's tests, to show each layer holds alone.
        checks = request.get('checks', 'all')
        tree = static_check.parse(request['source'])
        if checks == 'all':
            static_check.check(tree, limits.get('max_nodes', 50000))
        info = static_check.module_info(tree)
        answer['info'] = info
        program = execution.Program(tree, checks != 'none', log)
        if request['mode'] in ('dry_run', 'run'):
            set_limits(limits)
            answer['signals'] = run(program, info, request, limits)
    except Refusal as r:
        answer = {'ok': False, 'error': r.as_answer()}
    except MemoryError:
        answer = {'ok': False, 'error': {'code': 'memory', 'message': '', 'line': None}}
    except RecursionError:
        # A syntax tree too deep for the compiler or the import rewriting (`1+1+...+1`).
        answer = {'ok': False, 'error': {'code': 'too_complex', 'message': '', 'line': None}}
    except Exception as e:
        answer = {'ok': False, 'error': {'code': 'protocol', 'message': type(e).__name__, 'line': None}}
    answer['elapsed_ms'] = round((time.perf_counter() - started) * 1000, 3)
    try:
        log.flush()
    except (OSError, ValueError):
        pass
    answer_stream.write(json.dumps(answer, allow_nan=False).encode('utf-8'))
    answer_stream.flush()


main()
