"""JSON with exact numbers.

cty numbers are arbitrary-precision binary floats, so no number may pass through a Python
float: numbers are read as `decimal.Decimal` (exact for any JSON number text) and written back from their exact decimal text. Integers
stay `int` (paths hold them), except `-0`, whose sign only a Decimal keeps.
"""
import decimal
import json
import sys

# Python refuses to turn integers of more than 4,300 digits into text by default.
sys.set_int_max_str_digits(0)


def loads(text):
    """Parses JSON text; every non-integer number and `-0` becomes a Decimal, other integers
    stay int."""
    return json.loads(text, parse_float=decimal.Decimal, parse_int=_integer)


def _integer(text):
    return decimal.Decimal(text) if text == "-0" else int(text)


def dumps(value):
    """Compact JSON text of `value` (dicts keep their order); Decimals keep every digit."""
    out = []
    _write(value, out)
    return "".join(out)


def number_text(number):
    """The JSON text of an int or a finite Decimal, every digit kept."""
    if isinstance(number, bool):
        raise TypeError("a bool is not a number")
    if isinstance(number, int):
        return str(number)
    if not number.is_finite():
        raise ValueError(f"no JSON text for {number}")
    text = str(number)
    # Decimal writes `1E+400`, which JSON accepts, and `0E-7` for a zero, also fine.
    return text


def _write(value, out):
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, (int, decimal.Decimal)):
        out.append(number_text(value))
    elif isinstance(value, str):
        out.append(json.dumps(value, ensure_ascii=False))
    elif isinstance(value, dict):
        out.append("{")
        for i, (key, item) in enumerate(value.items()):
            if i:
                out.append(",")
            out.append(json.dumps(key, ensure_ascii=False))
            out.append(":")
            _write(item, out)
        out.append("}")
    elif isinstance(value, (list, tuple)):
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(",")
            _write(item, out)
        out.append("]")
    else:
        raise TypeError(f"not JSON: {type(value).__name__}")
