"""The signals a detect_<id> function returns, checked and normalised (docs/strategies-python.md).

Only exact built-in types are read, through their own C methods (`dict.get(item, ...)`, never
`item.get`), so no method of an object the user made runs here.
"""
import math
import sys

from refusal import fail

SIDES = {'buy': 'buy', 'sell': 'sell', 'long': 'buy', 'short': 'sell', 'achat': 'buy', 'vente': 'sell', 1: 'buy', -1: 'sell'}


# The largest float: an int past it (`10 ** 400`) is no price; math.isfinite() or float() of it
# would raise OverflowError, and repr() of one past 4,300 digits ValueError, instead of the refusal
# that names the signal.
FLOAT_MAX = sys.float_info.max


def number(value):
    if type(value) is float:
        return math.isfinite(value)
    return type(value) is int and -FLOAT_MAX <= value <= FLOAT_MAX


def normalize(result, n, max_signals, zone_required=False):
    if result is None:
        return []
    if type(result) is dict and 'signals' in result:
        result = dict.get(result, 'signals')
    if type(result) in (str, bytes, dict) or result is None:
        fail('bad_output', 'type', None, detail=type(result).__name__)
    try:
        items = iter(result)
    except TypeError:
        fail('bad_output', 'type', None, detail=type(result).__name__)
    out = []
    # A signal repeated as such is one setup, not several trades on the same candle (returning the
    # list three times must not triple a result's trades): the first of identical signals is kept.
    seen = set()
    for position, item in enumerate(items):
        if position >= max_signals:
            fail('bad_output', 'too_many', None, detail=str(max_signals))
        stop, zone = None, None
        if type(item) is dict:
            index, side, stop, zone = (dict.get(item, key) for key in ('index', 'side', 'stop', 'zone'))
        elif type(item) in (list, tuple) and 2 <= len(item) <= 3:
            index, side = item[0], item[1]
            stop = item[2] if len(item) == 3 else None
        else:
            fail('bad_output', 'item', None, position=position)
        if type(index) is not int or index < 0 or index >= n:
            fail('bad_output', 'index', None, position=position, detail=safe_repr(index), n=n)
        key = str.lower(side) if type(side) is str else side
        if type(key) not in (str, int) or key not in SIDES:
            fail('bad_output', 'side', None, position=position, detail=safe_repr(side))
        signal = {'index': index, 'side': SIDES[key]}
        if stop is not None:
            if not number(stop):
                fail('bad_output', 'stop', None, position=position, detail=safe_repr(stop))
            signal['stop'] = float(stop)
        if zone is not None:
            top = dict.get(zone, 'top') if type(zone) is dict else None
            bottom = dict.get(zone, 'bottom') if type(zone) is dict else None
            if not number(top) or not number(bottom) or not top > bottom:
                fail('bad_output', 'zone', None, position=position, detail=safe_repr(zone, 80))
            signal['zone'] = {'top': float(top), 'bottom': float(bottom)}
        elif zone_required:
            fail('bad_output', 'zone_missing', None, position=position)
        zoned = signal.get('zone')
        identity = (index, signal['side'], signal.get('stop'), zoned and zoned['top'], zoned and zoned['bottom'])
        if identity in seen:
            continue
        seen.add(identity)
        out.append(signal)
    return out


def plain(value):
    """A value whose repr() is Python's own and cannot fail (no int past the floats)."""
    if type(value) is int:
        return -FLOAT_MAX <= value <= FLOAT_MAX
    return type(value) in (float, str, bool, type(None))


def safe_repr(value, size=40):
    """repr() of plain values only: an object of the user's class would run its own __repr__."""
    if type(value) is int and plain(value) and len(repr(value)) > 20:
        return '%.6g' % value
    if plain(value):
        return repr(value)[:size]
    if type(value) is int:
        # Its order of magnitude, from its size in bits: no conversion to text.
        return '~%s1e+%d' % ('-' if value < 0 else '', int(value.bit_length() * 0.30103))
    if type(value) is dict and all(plain(k) and plain(v) for k, v in dict.items(value)):
        return repr(value)[:size]
    return '<' + type(value).__name__[:size] + '>'


def columns(data, length=None):
    """The candles handed to the function: fresh lists each call, cut to `length` for the look-ahead check."""
    result = {}
    for key, value in data.items():
        result[key] = list(value[:length] if length is not None else value) if isinstance(value, list) else value
    return result
