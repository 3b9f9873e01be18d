/**
 * The Python side of the strategy sandbox (docs/strategies-python.md), run as
 * `python3 -I -S -B -c RUNNER` with an empty environment in an empty temporary directory. Kept in
 * a TypeScript string so it ships with the sources under Node, tsc's dist/ and Deno alike.
 *
 * Layers, in order: a static check with Python's own `ast` (imports from an allow-list only, no
 * dangerous builtins, no `_`-prefixed attribute, no frame/code attributes, no `__` in strings);
 * resource limits (CPU time, address space, no file writes, no core files, few descriptors);
 * execution with a reduced set of builtins, an `__import__` that hands out proxies of the allowed
 * modules only, and an audit hook (sys.addaudithook) that refuses file, socket, process and code
 * events while user code runs. Input and output are one JSON document each, on stdin and stdout.
 */
export const RUNNER_SOURCE = String.raw`
import ast, json, sys, time, types, builtins, resource
import math, statistics, itertools, functools, collections, collections.abc, operator, bisect, heapq, fractions, decimal, typing

ALLOWED_MODULES = ('math', 'statistics', 'itertools', 'functools', 'collections', 'operator', 'bisect', 'heapq', 'fractions', 'decimal', 'typing')
FORBIDDEN_NAMES = {'open', 'eval', 'exec', 'compile', '__import__', 'globals', 'locals', 'vars', 'getattr', 'setattr', 'delattr',
                   'input', 'breakpoint', 'help', 'exit', 'quit', 'memoryview', 'copyright', 'credits', 'license', 'dir'}
FORBIDDEN_ATTRS = {'gi_frame', 'gi_code', 'gi_yieldfrom', 'gi_running', 'cr_frame', 'cr_code', 'cr_await', 'ag_frame', 'ag_code', 'ag_await',
                   'f_globals', 'f_locals', 'f_builtins', 'f_back', 'f_code', 'f_trace', 'f_lasti', 'tb_frame', 'tb_next', 'tb_lasti',
                   'co_code', 'co_consts', 'co_names', 'func_globals', 'func_code', 'mro', 'sys', 'os', 'modules', 'builtins', 'subprocess',
                   'format_map', 'with_traceback'}
SAFE_BUILTINS_NAMES = ['abs', 'all', 'any', 'ascii', 'bin', 'bool', 'bytearray', 'bytes', 'callable', 'chr', 'classmethod', 'complex', 'dict',
                       'divmod', 'enumerate', 'filter', 'float', 'format', 'frozenset', 'hasattr', 'hash', 'hex', 'id', 'int', 'isinstance',
                       'issubclass', 'iter', 'len', 'list', 'map', 'max', 'min', 'next', 'object', 'oct', 'ord', 'pow', 'property', 'range',
                       'repr', 'reversed', 'round', 'set', 'slice', 'sorted', 'staticmethod', 'str', 'sum', 'super', 'tuple', 'type', 'zip',
                       '__build_class__', 'NotImplemented', 'Ellipsis', 'None', 'True', 'False']
# Dynamic attribute access by name would undo the static attribute rules.
PROXY_DENIED = {'attrgetter', 'methodcaller'}
DETECT_PREFIX = 'detect_'
META_NAMES = ('PARAMS', 'ENTRY_MODE', 'FILTERS', 'DESCRIPTION', 'NAME')

class Refusal(Exception):
    def __init__(self, code, message, line=None, **extra):
        Exception.__init__(self, message)
        self.code, self.message, self.line, self.extra = code, message, line, extra

def fail(code, message, line=None, **extra):
    raise Refusal(code, message, line, **extra)

# ---------------------------------------------------------------- static check
def docstring_nodes(tree):
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                found.add(id(first.value))
    return found

def check_source(source, max_nodes):
    try:
        tree = ast.parse(source, filename='<strategy>')
    except SyntaxError as e:
        fail('syntax', str(e.msg), e.lineno)
    docs = docstring_nodes(tree)
    count = 0
    for node in ast.walk(tree):
        count += 1
        if count > max_nodes:
            fail('too_complex', str(max_nodes))
        line = getattr(node, 'lineno', None)
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split('.')[0] not in ALLOWED_MODULES:
                    fail('forbidden_import', alias.name, line)
        elif isinstance(node, ast.ImportFrom):
            if node.level or not node.module or node.module.split('.')[0] not in ALLOWED_MODULES:
                fail('forbidden_import', ('.' * (node.level or 0)) + (node.module or ''), line)
            for alias in node.names:
                if alias.name.startswith('_'):
                    fail('forbidden_attribute', alias.name, line)
        elif isinstance(node, ast.Name):
            if node.id in FORBIDDEN_NAMES or (node.id.startswith('__') and node.id != '__name__'):
                fail('forbidden_name', node.id, line)
        elif isinstance(node, ast.Attribute):
            if node.attr.startswith('_') or node.attr in FORBIDDEN_ATTRS:
                fail('forbidden_attribute', node.attr, line)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if '__' in node.value and id(node) not in docs:
                fail('forbidden_string', node.value[:40], line)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            pass
    return tree

def literal(node, name):
    try:
        return ast.literal_eval(node)
    except Exception:
        fail('bad_meta', name, getattr(node, 'lineno', None))

def module_info(tree):
    detects, meta = [], {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith(DETECT_PREFIX):
            detects.append(node)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and node.targets[0].id in META_NAMES:
            meta[node.targets[0].id] = literal(node.value, node.targets[0].id)
    if not detects:
        fail('no_detect', '')
    if len(detects) > 1:
        fail('several_detect', ', '.join(d.name for d in detects), detects[1].lineno)
    fn = detects[0]
    if isinstance(fn, ast.AsyncFunctionDef):
        fail('bad_signature', fn.name, fn.lineno)
    detect_id = fn.name[len(DETECT_PREFIX):]
    parts = detect_id.split('_')
    if not detect_id or len(detect_id) > 80 or not all(p and p.isascii() and p.isalnum() for p in parts):
        fail('bad_detect_name', fn.name, fn.lineno)
    args = fn.args
    positional = len(args.posonlyargs) + len(args.args)
    if positional < 2 or positional - len(args.defaults) > 2 or args.kwonlyargs and len(args.kw_defaults) != len(args.kwonlyargs) and None in args.kw_defaults:
        fail('bad_signature', fn.name, fn.lineno)
    return {'function': fn.name, 'detect_id': detect_id, 'meta': meta, 'line': fn.lineno}

# ---------------------------------------------------------------- execution layer
audit_state = {'armed': False, 'exec_budget': 0}
REFUSED_PREFIXES = ('os.', 'subprocess.', 'socket.', 'ctypes.', 'shutil.', 'pty.', 'fcntl.', 'glob.', 'urllib', 'http.', 'ftplib.',
                    'smtplib.', 'poplib.', 'imaplib.', 'telnetlib.', 'webbrowser.', 'mmap.', 'sqlite3.', 'winreg.', 'resource.', 'signal.')
REFUSED_EVENTS = {'open', 'import', 'compile', 'code.__new__', 'function.__new__', 'sys._getframe', 'sys._current_frames', 'sys.settrace',
                  'sys.setprofile', 'sys.addaudithook', 'builtins.input', 'builtins.breakpoint', 'pickle.find_class', 'marshal.loads',
                  'marshal.load', 'gc.get_referrers', 'gc.get_referents', 'gc.get_objects', 'syslog.openlog', 'cpython.run_command'}

def audit(event, args):
    if not audit_state['armed']:
        return
    if event == 'exec' and audit_state['exec_budget'] > 0:
        audit_state['exec_budget'] -= 1
        return
    if event == 'exec' or event in REFUSED_EVENTS or event.startswith(REFUSED_PREFIXES):
        raise RuntimeError('bt sandbox: operation refused: ' + event)

proxies = {}
def proxy_of(name):
    if name in proxies:
        return proxies[name]
    real = sys.modules[name]
    proxy = types.ModuleType(name)
    proxies[name] = proxy
    for key, value in list(vars(real).items()):
        if key.startswith('_') or key in PROXY_DENIED:
            continue
        if isinstance(value, types.ModuleType):
            if value.__name__.split('.')[0] in ALLOWED_MODULES and value.__name__ in sys.modules:
                setattr(proxy, key, proxy_of(value.__name__))
            continue
        setattr(proxy, key, value)
    return proxy

def guarded_import(name, globals=None, locals=None, fromlist=(), level=0):
    root = name.split('.')[0]
    if level != 0 or root not in ALLOWED_MODULES or name not in sys.modules:
        raise ImportError('bt sandbox: import refused: ' + str(name))
    return proxy_of(name) if fromlist else proxy_of(root)

class Sink:
    def __init__(self, limit):
        self.parts, self.size, self.limit, self.dropped = [], 0, limit, 0
    def write(self, text):
        text = str(text)
        room = self.limit - self.size
        if room > 0:
            self.parts.append(text[:room])
            self.size += min(len(text), room)
        self.dropped += max(0, len(text) - max(room, 0))
        return len(text)
    def flush(self):
        pass
    def value(self):
        return ''.join(self.parts)

def make_builtins(sink):
    safe = {name: getattr(builtins, name) for name in SAFE_BUILTINS_NAMES if hasattr(builtins, name)}
    for name, value in vars(builtins).items():
        if isinstance(value, type) and issubclass(value, BaseException) and value not in (SystemExit, KeyboardInterrupt):
            safe[name] = value
    def safe_print(*args, sep=' ', end='\n', file=None, flush=False):
        sink.write(str(sep).join(str(a) for a in args) + str(end))
    safe['print'] = safe_print
    safe['__import__'] = guarded_import
    return safe

def user_line(tb):
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == '<strategy>':
            line = tb.tb_lineno
        tb = tb.tb_next
    return line

def run_user(code, function, candles, params, sink):
    namespace = {'__builtins__': make_builtins(sink), '__name__': 'strategy'}
    audit_state['exec_budget'] = 1
    audit_state['armed'] = True
    try:
        exec(code, namespace)
        return namespace[function](candles, params)
    except MemoryError:
        audit_state['armed'] = False
        fail('memory', '')
    except RecursionError as e:
        audit_state['armed'] = False
        fail('runtime_error', 'RecursionError: ' + str(e)[:200], user_line(e.__traceback__))
    except Refusal:
        raise
    except BaseException as e:
        audit_state['armed'] = False
        text = str(e)
        if text.startswith('bt sandbox: operation refused: '):
            fail('refused_operation', text.split(': ')[-1], user_line(e.__traceback__))
        if text.startswith('bt sandbox: import refused: '):
            fail('forbidden_import', text.split(': ')[-1], user_line(e.__traceback__))
        fail('runtime_error', type(e).__name__ + ': ' + text[:300], user_line(e.__traceback__))
    finally:
        audit_state['armed'] = False

SIDES = {'buy': 'buy', 'sell': 'sell', 'long': 'buy', 'short': 'sell', 'achat': 'buy', 'vente': 'sell', 1: 'buy', -1: 'sell'}

def number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)

def normalize_signals(result, n, max_signals):
    if result is None:
        return []
    if isinstance(result, dict) and 'signals' in result:
        result = result['signals']
    if isinstance(result, (str, bytes, dict)):
        fail('bad_output', 'type', None, detail=type(result).__name__)
    try:
        items = iter(result)
    except TypeError:
        fail('bad_output', 'type', None, detail=type(result).__name__)
    out = []
    for position, item in enumerate(items):
        if position >= max_signals:
            fail('bad_output', 'too_many', None, detail=str(max_signals))
        stop, zone = None, None
        if isinstance(item, dict):
            index, side, stop, zone = item.get('index'), item.get('side'), item.get('stop'), item.get('zone')
        elif isinstance(item, (list, tuple)) and 2 <= len(item) <= 3:
            index, side = item[0], item[1]
            stop = item[2] if len(item) == 3 else None
        else:
            fail('bad_output', 'item', None, position=position)
        if not isinstance(index, int) or isinstance(index, bool) or index < 0 or index >= n:
            fail('bad_output', 'index', None, position=position, detail=repr(index)[:40], n=n)
        key = side.lower() if isinstance(side, str) else side
        if isinstance(key, bool) or key not in SIDES:
            fail('bad_output', 'side', None, position=position, detail=repr(side)[:40])
        signal = {'index': index, 'side': SIDES[key]}
        if stop is not None:
            if not number(stop):
                fail('bad_output', 'stop', None, position=position, detail=repr(stop)[:40])
            signal['stop'] = float(stop)
        if zone is not None:
            top = zone.get('top') if isinstance(zone, dict) else None
            bottom = zone.get('bottom') if isinstance(zone, dict) else None
            if not number(top) or not number(bottom) or not top > bottom:
                fail('bad_output', 'zone', None, position=position, detail=repr(zone)[:80])
            signal['zone'] = {'top': float(top), 'bottom': float(bottom)}
        out.append(signal)
    return out

def columns(data, length=None):
    result = {}
    for key, value in data.items():
        result[key] = list(value[:length]) if isinstance(value, list) and length is not None else (list(value) if isinstance(value, list) else value)
    return result

def call(code, info, data, params, sink, limits, length=None):
    candles = columns(data, length)
    n = len(candles['close'])
    raw = run_user(code, info['function'], candles, dict(params), sink)
    audit_state['armed'] = True
    try:
        return normalize_signals(raw, n, limits['max_signals'])
    except MemoryError:
        fail('memory', '')
    finally:
        audit_state['armed'] = False

def main():
    out = sys.stdout.buffer
    request = json.loads(sys.stdin.buffer.read())
    limits = request['limits']
    sink = Sink(limits.get('log_bytes', 65536))
    sys.stdout = sink
    sys.stderr = sink
    started = time.perf_counter()
    response = {'ok': True}
    try:
        source = request['source']
        if request.get('static_check', True):
            tree = check_source(source, limits.get('max_nodes', 50000))
        else:
            tree = ast.parse(source, filename='<strategy>')
        info = module_info(tree)
        response['info'] = info
        code = compile(tree, '<strategy>', 'exec')
        resource.setrlimit(resource.RLIMIT_CPU, (limits['cpu_seconds'], limits['cpu_seconds'] + 1))
        resource.setrlimit(resource.RLIMIT_AS, (limits['memory_bytes'], limits['memory_bytes']))
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_NOFILE, (16, 16))
        try:
            resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))
        except (ValueError, OSError):
            pass
        sys.addaudithook(audit)
        mode = request['mode']
        if mode in ('dry_run', 'run'):
            data = request['candles']
            params = request.get('params') or {}
            signals = call(code, info, data, params, sink, limits)
            response['signals'] = signals
            # No look-ahead: the signals before a cut must not change when the candles after it
            # are removed (a signal at i may only use candles <= i). Several cuts, since one cut
            # only catches a peek whose answer happens to differ there.
            if mode == 'dry_run':
                for cut in request.get('lookahead_cuts') or []:
                    early = call(code, info, data, params, sink, limits, cut)
                    full = [s for s in signals if s['index'] < cut]
                    if early != full:
                        for a, b in itertools.zip_longest(full, early):
                            if a != b:
                                where = (a or b)['index']
                                fail('lookahead', str(where), None, index=where, cut=cut)
    except Refusal as r:
        response = {'ok': False, 'error': dict({'code': r.code, 'message': r.message, 'line': r.line}, **r.extra)}
    except MemoryError:
        response = {'ok': False, 'error': {'code': 'memory', 'message': '', 'line': None}}
    response['logs'] = sink.value()
    response['elapsed_ms'] = round((time.perf_counter() - started) * 1000, 3)
    out.write(json.dumps(response, allow_nan=False).encode('utf-8'))
    out.flush()

main()
`;
