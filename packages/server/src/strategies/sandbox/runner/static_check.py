"""The static check: what a strategy file may name, read before anything runs.

The rule behind every list here: user code may only read or write attributes whose names are
written in the file, and those names may not lead out of plain data (docs/security.md, "The
strategy sandbox"). So every place where Python turns a name into an attribute access is checked:
`x.name`, the keyword patterns of `case Cls(name=...)`, and `from module import name`; and the
places where the name would be data are refused: positional class patterns (read through
`__match_args__`), `str.format` / `format_map` fields (`"{0.__class__}"`), and the functions of the
allowed modules that take an attribute name as an argument (`operator.attrgetter` ...).
"""
import ast
import json

from refusal import fail

ALLOWED_MODULES = ('math', 'statistics', 'itertools', 'functools', 'collections', 'operator', 'bisect', 'heapq',
                   'fractions', 'decimal', 'typing')

# Names of the allowed modules left out: each reads or sets attributes by a name given as data
# (attrgetter, methodcaller, update_wrapper/wraps' assigned and updated lists), or compiles a
# string into code (get_type_hints, ForwardRef, namedtuple, NamedTuple).
WITHHELD = {
    'operator': ('attrgetter', 'methodcaller'),
    'functools': ('update_wrapper', 'wraps', 'WRAPPER_ASSIGNMENTS', 'WRAPPER_UPDATES'),
    'typing': ('get_type_hints', 'ForwardRef', 'NamedTuple'),
    'collections': ('namedtuple',),
}
WITHHELD_NAMES = frozenset(name for names in WITHHELD.values() for name in names)

FORBIDDEN_NAMES = frozenset({
    'open', 'eval', 'exec', 'compile', '__import__', 'globals', 'locals', 'vars', 'getattr', 'setattr', 'delattr',
    'input', 'breakpoint', 'help', 'exit', 'quit', 'memoryview', 'copyright', 'credits', 'license', 'dir',
}) | WITHHELD_NAMES

# Attributes of frames, code objects, generators, coroutines and tracebacks (every Python from
# 3.8 to 3.13), of cells and modules, and the format methods whose fields read attributes.
FORBIDDEN_ATTRS = frozenset({
    'gi_frame', 'gi_code', 'gi_yieldfrom', 'gi_running', 'gi_suspended',
    'cr_frame', 'cr_code', 'cr_await', 'cr_running', 'cr_origin', 'cr_suspended',
    'ag_frame', 'ag_code', 'ag_await', 'ag_running',
    'f_back', 'f_builtins', 'f_code', 'f_globals', 'f_lasti', 'f_lineno', 'f_locals', 'f_trace', 'f_trace_lines',
    'f_trace_opcodes', 'f_generator',
    'tb_frame', 'tb_next', 'tb_lasti', 'tb_lineno',
    'co_code', 'co_consts', 'co_names', 'co_varnames', 'co_cellvars', 'co_freevars', 'co_filename', 'co_name',
    'co_qualname', 'co_firstlineno', 'co_lnotab', 'co_linetable', 'co_exceptiontable', 'co_flags', 'co_positions',
    'co_lines', 'co_argcount', 'co_posonlyargcount', 'co_kwonlyargcount', 'co_nlocals', 'co_stacksize',
    'func_globals', 'func_code', 'im_func', 'im_self', 'cell_contents', 'with_traceback',
    'mro', 'sys', 'os', 'modules', 'builtins', 'subprocess',
    'format', 'format_map',
}) | WITHHELD_NAMES

DETECT_PREFIX = 'detect_'
META_NAMES = ('PARAMS', 'ENTRY_MODE', 'FILTERS', 'DESCRIPTION', 'NAME')


def parse(source):
    try:
        return ast.parse(source, filename='<strategy>')
    except SyntaxError as e:
        fail('syntax', str(e.msg), e.lineno, column=e.offset if isinstance(e.offset, int) and e.offset > 0 else None)
    except (RecursionError, MemoryError):
        # Nesting too deep for the parser (`1+1+...+1`).
        fail('too_complex', '')
    except ValueError as e:
        # A NUL byte.
        fail('syntax', str(e)[:200])


def docstring_nodes(tree):
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                found.add(id(first.value))
    return found


def check_attribute(name, line):
    if name.startswith('_') or name in FORBIDDEN_ATTRS:
        fail('forbidden_attribute', name, line)


def check(tree, max_nodes):
    docs = docstring_nodes(tree)
    nodes = []
    for node in ast.walk(tree):
        nodes.append(node)
        if len(nodes) > max_nodes:
            fail('too_complex', str(max_nodes))
    # In reading order, so the refusal names what comes first (`a.b.c`: a.b before .c).
    nodes.sort(key=lambda n: (getattr(n, 'lineno', 0), getattr(n, 'col_offset', 0), getattr(n, 'end_lineno', 0), getattr(n, 'end_col_offset', 0)))
    for node in nodes:
        line = getattr(node, 'lineno', None)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.asname and alias.asname.startswith('__'):
                    fail('forbidden_name', alias.asname, line)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node in tree.body and node.name.startswith('__'):
            # A module-level `def __builtins__` or `class __import__` would shadow the interpreter's own.
            fail('forbidden_name', node.name, line)
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
                if alias.name in WITHHELD_NAMES:
                    fail('forbidden_name', alias.name, line)
        elif isinstance(node, ast.Name):
            if node.id in FORBIDDEN_NAMES or (node.id.startswith('__') and node.id != '__name__'):
                fail('forbidden_name', node.id, line)
        elif isinstance(node, ast.Attribute):
            check_attribute(node.attr, line)
        elif isinstance(node, ast.MatchClass):
            # `case Cls(name=x)` reads `subject.name`: the same rule as `subject.name`.
            for name in node.kwd_attrs:
                check_attribute(name, line)
            # `case Cls(x)` reads the attribute named by `Cls.__match_args__`, which is data.
            if node.patterns:
                fail('forbidden_pattern', ast.unparse(node.cls)[:60], line)
        elif isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
            text = node.value if isinstance(node.value, str) else node.value.decode('latin-1')
            if '__' in text and id(node) not in docs:
                fail('forbidden_string', text[:40], line)


def literal(node, name):
    """A module constant's value, which must also travel as JSON (no set, bytes, complex, NaN)."""
    try:
        value = ast.literal_eval(node)
        json.dumps(value, allow_nan=False)
        return value
    except Exception:
        fail('bad_meta', name, getattr(node, 'lineno', None))


def module_info(tree):
    """The detect_<id> function and the module constants (docs/strategies-python.md), never run."""
    detects, meta = [], {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith(DETECT_PREFIX):
            detects.append(node)
        elif (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
              and node.targets[0].id in META_NAMES):
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
    if positional < 2 or positional - len(args.defaults) > 2 or (args.kwonlyargs and None in args.kw_defaults):
        fail('bad_signature', fn.name, fn.lineno)
    return {'function': fn.name, 'detect_id': detect_id, 'meta': meta, 'line': fn.lineno}
