"""How the user's code runs: the objects it is given, its imports, and the audit hook.

Nothing defined in the runner is handed to user code: a Python function's `__globals__` is the
runner's module, the way out of every rule. The builtins are CPython's own C functions, `print` is
a `functools.partial` over the C `print`, and `import` statements are rewritten into lookups in a
table whose name cannot be written in source, holding proxies of the allowed modules (their public
names only). The audit hook is installed right before the first run of the user's module and is
never disarmed: it refuses every event but `builtins.id`, except the runner's own runs of that
module, counted out by a C iterator it alone holds (docs/security.md, "The strategy sandbox").
"""
import ast
import builtins
import functools
import importlib
import io
import itertools
import sys
import types

import static_check
from refusal import Refusal, fail

# User lines are moved this far down, so a traceback tells them from the runner's and the
# library's by the line number alone (reading a frame's file name is refused once armed).
LINE_OFFSET = 10_000_000
# A global whose name is not an identifier: rewritten imports read it, source code cannot name it.
MODULES = 'bt modules'
REFUSED = 'bt sandbox: operation refused: '
HARMLESS_EVENTS = frozenset({'builtins.id'})

SAFE_BUILTINS_NAMES = ('abs', 'all', 'any', 'ascii', 'bin', 'bool', 'bytearray', 'bytes', 'callable', 'chr', 'classmethod',
                       'complex', 'dict', 'divmod', 'enumerate', 'filter', 'float', 'format', 'frozenset', 'hasattr', 'hash',
                       'hex', 'id', 'int', 'isinstance', 'issubclass', 'iter', 'len', 'list', 'map', 'max', 'min', 'next',
                       'object', 'oct', 'ord', 'pow', 'property', 'range', 'repr', 'reversed', 'round', 'set', 'slice',
                       'sorted', 'staticmethod', 'str', 'sum', 'super', 'tuple', 'type', 'zip', '__build_class__',
                       'NotImplemented', 'Ellipsis', 'None', 'True', 'False')


def load_allowed_modules():
    """Imports every module user code may import: nothing can be imported once the hook is armed."""
    for name in static_check.ALLOWED_MODULES + ('collections.abc',):
        importlib.import_module(name)


def log_stream():
    """The strategy's print() and the interpreter's own messages: fd 2, read and capped by the server."""
    raw = io.FileIO(2, 'w', closefd=False)
    return io.TextIOWrapper(io.BufferedWriter(raw), encoding='utf-8', errors='backslashreplace', write_through=True)


def safe_builtins(log):
    safe = {name: getattr(builtins, name) for name in SAFE_BUILTINS_NAMES if hasattr(builtins, name)}
    for name, value in vars(builtins).items():
        if isinstance(value, type) and issubclass(value, BaseException) and value not in (SystemExit, KeyboardInterrupt):
            safe[name] = value
    safe['print'] = functools.partial(builtins.print, file=log)
    return safe


def proxy_modules():
    """'math' -> a module holding math's public names; submodules of allowed modules as proxies too."""
    proxies = {}
    # Withheld by identity, not by name under its own module: functools and statistics re-export
    # collections.namedtuple under the same name.
    withheld_objects = [getattr(sys.modules[module], key) for module, keys in static_check.WITHHELD.items() for key in keys]

    def withheld(value):
        return any(value is w for w in withheld_objects)

    def proxy_of(name):
        if name in proxies:
            return proxies[name]
        real = sys.modules[name]
        proxy = types.ModuleType(name)
        proxies[name] = proxy
        for key, value in list(vars(real).items()):
            if key.startswith('_') or key in static_check.WITHHELD_NAMES or withheld(value):
                continue
            if isinstance(value, types.ModuleType):
                if value.__name__.split('.')[0] in static_check.ALLOWED_MODULES and value.__name__ in sys.modules:
                    setattr(proxy, key, proxy_of(value.__name__))
                continue
            setattr(proxy, key, value)
        return proxy

    for name in list(sys.modules):
        if name.split('.')[0] in static_check.ALLOWED_MODULES:
            proxy_of(name)
    return proxies


class ImportRewriter(ast.NodeTransformer):
    """`import m`, `import m.n as x`, `from m import a, b as c, *` -> assignments from MODULES."""

    def __init__(self, proxies):
        self.proxies = proxies
        self.table = {}

    def lookup(self, key, value, node):
        self.table[key] = value
        return ast.Subscript(value=ast.Name(id=MODULES, ctx=ast.Load()), slice=ast.Constant(key), ctx=ast.Load())

    def assign(self, target, value, node):
        return ast.copy_location(ast.Assign(targets=[ast.Name(id=target, ctx=ast.Store())], value=value), node)

    def module(self, name, node):
        if name.split('.')[0] not in static_check.ALLOWED_MODULES or name not in self.proxies:
            fail('forbidden_import', name, node.lineno)
        return self.proxies[name]

    def visit_Import(self, node):
        out = []
        for alias in node.names:
            self.module(alias.name, node)
            bound = alias.name if alias.asname else alias.name.split('.')[0]
            out.append(self.assign(alias.asname or bound, self.lookup(bound, self.proxies[bound], node), node))
        return out

    def visit_ImportFrom(self, node):
        name = ('.' * (node.level or 0)) + (node.module or '')
        if node.level:
            fail('forbidden_import', name, node.lineno)
        proxy = self.module(name, node)
        out = []
        for alias in node.names:
            if alias.name == '*':
                for key in sorted(vars(proxy)):
                    if not key.startswith('_'):
                        out.append(self.assign(key, self.lookup(name + ':' + key, getattr(proxy, key), node), node))
                continue
            if alias.name.startswith('_') or alias.name in static_check.WITHHELD_NAMES:
                fail('forbidden_name', alias.name, node.lineno)
            if hasattr(proxy, alias.name):
                value = getattr(proxy, alias.name)
            elif name + '.' + alias.name in self.proxies:
                value = self.proxies[name + '.' + alias.name]
            else:
                fail('runtime_error', "ImportError: cannot import name '%s' from '%s'" % (alias.name, name), node.lineno)
            out.append(self.assign(alias.asname or alias.name, self.lookup(name + ':' + alias.name, value, node), node))
        return out


class Program:
    """The compiled user module, ready to run in a fresh namespace for each call."""

    def __init__(self, tree, python_checks, log):
        self.python_checks = python_checks
        self.table = {}
        if python_checks:
            rewriter = ImportRewriter(proxy_modules())
            tree = ast.fix_missing_locations(rewriter.visit(tree))
            self.table = rewriter.table
            self.builtins = safe_builtins(log)
        else:
            # Tests only: everything Python offers, to show the OS layer holds alone.
            self.builtins = builtins.__dict__
        ast.increment_lineno(tree, LINE_OFFSET)
        try:
            self.code = compile(tree, '<strategy>', 'exec')
        except SyntaxError as e:
            fail('syntax', str(e.msg), user_line_number(e.lineno), column=e.offset if isinstance(e.offset, int) and e.offset > 0 else None)

    def arm(self, runs):
        """The audit hook, from now until the process ends; the module may be run `runs` times."""
        if not self.python_checks:
            return
        code = self.code
        allowance = itertools.repeat(code, runs)
        # Everything the hook uses is bound here, in its closure: a global or a builtin it looked
        # up when called could be rebound by code that reached this module.
        harmless, take, refused, refusal = HARMLESS_EVENTS, next, REFUSED, RuntimeError

        def guard(event, args):
            if event == 'exec' and args and args[0] is code and take(allowance, None) is code:
                return
            if event not in harmless:
                raise refusal(refused + event)

        sys.addaudithook(guard)

    def namespace(self):
        namespace = {'__builtins__': self.builtins, '__name__': 'strategy'}
        if self.python_checks:
            namespace[MODULES] = dict(self.table)
        return namespace

    def call(self, function, candles, params, finish):
        """
        Runs the module in a fresh namespace (no state kept from a previous call: the look-ahead
        check depends on it), then `finish(function(candles, params))`; errors become refusals.
        """
        try:
            namespace = self.namespace()
            exec(self.code, namespace)
            return finish(namespace[function](candles, params))
        except Refusal:
            raise
        except MemoryError:
            fail('memory', '')
        except RecursionError as e:
            fail('runtime_error', 'RecursionError: ' + str(e)[:200], user_line(e))
        except BaseException as e:
            try:
                text = str(e)
            except BaseException:
                text = '?'
            if text.startswith(REFUSED):
                fail('refused_operation', text[len(REFUSED):][:100], user_line(e))
            fail('runtime_error', type(e).__name__ + ': ' + text[:300], user_line(e))


def user_line_number(lineno):
    return lineno - LINE_OFFSET if lineno and lineno > LINE_OFFSET else None


def user_line(error):
    """The last line of the user's file in the traceback (tb_lineno and tb_next are not audited)."""
    line, tb = None, error.__traceback__
    while tb is not None:
        line = user_line_number(tb.tb_lineno) or line
        tb = tb.tb_next
    return line
