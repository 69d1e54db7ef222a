"""Typed values between the engine protocol and Terraform.

Two directions:

- `render` writes a protocol typed value as a Terraform expression that evaluates to exactly
  that value: known parts as literals, collections and nulls through Terraform's `convert`
  function (so that a list stays a list and a null keeps its type), unknown parts as an
  unknown value converted to their type, sensitive parts wrapped in `sensitive(...)`. Before
  Terraform 1.15, which has no `convert`, a conversion is written by the engine's
  `typed_node` instead (a module's typed input variable).
- `decode_planned` reads a value from a saved plan (cty's msgpack encoding against the
  dynamic pseudo-type, which carries the value's exact type) back into a protocol typed
  value, with the paths of its unknown parts and their refinements (go-cty's facts about
  an unknown: not null, a string prefix, number bounds, collection length bounds), which
  the plan keeps.

What Terraform cannot write is refused with `Inexpressible`, and the engine answers
`unsupported`: a typed null or unknown of an object type with an attribute name that is not
an identifier (type constraints only take identifiers), and a sensitive mark inside a list,
set or map (conversion moves such marks onto the whole collection).
"""
import decimal
import fractions
import json
import math
import re
import sys

import msgpack

from . import exactjson

PRIMITIVES = ("string", "number", "bool")
# cty's own infinities (cty.PositiveInfinity, as the protocol's "Infinity" decodes): go-cty-yaml
# gives them for `.inf`. A computed infinity (`1 / 0`) is another value to cty, whose Modulo
# tells the two apart.
INFINITIES = {"Infinity": 'yamldecode(".inf")', "-Infinity": 'yamldecode("-.inf")'}
# An HCL identifier: a letter or underscore, then letters, digits, underscores and dashes.
IDENTIFIER = re.compile(r"[^\W\d][\w-]*\Z")
# cty's msgpack extension codes for an unknown value, plain and refined.
UNKNOWN_EXT = (0, 0x0C)
# go-cty before 1.14.4 (Terraform before 1.9) writes any number that a float64 holds exactly
# as a msgpack float, whole numbers too; a whole number beyond int64 may then be a 512-bit
# integer (`18446744073709551615 + 1`, whose text is every digit) or a float64 result
# (`pow(2, 200)`, whose text is the shortest float64 decimal): which, the plan does not say.
# Later versions write such a number as its text.
AMBIGUOUS_WHOLE = 2 ** 63
# A number that is not whole is written as a float64 when one holds it exactly, and read back
# at precision 53. Go's text of it (`big.Float.Text('f', -1)`) is the shortest decimal within
# half a unit of the last place either side, which is Python's repr of the float except at a
# power of two, where the float64 below is closer, so repr may need one more digit than Go
# gives (2 ** -513: Go `3.729170365600103e-155`, repr `3.7291703656001034e-155`), and at a
# subnormal, which Go holds with more bits than the float64 has (2 ** -1074: Go
# `4.940656458412465e-324`, repr `5e-324`). Such a number's text is asked of Terraform too.


class Inexpressible(Exception):
    """Terraform's language has no way to write this value."""


class BadValue(Exception):
    """A typed value that does not match its type (a malformed request)."""


class Unknown:
    """An unknown value read from a plan, with its refinements as protocol fields (a dict
    without `path`; empty when nothing is known)."""

    def __init__(self, refinements=None):
        self.refinements = refinements or {}


UNKNOWN = Unknown()
# The keys of cty's msgpack refinement map (cty/msgpack/unknown.go).
REFINE_NULLNESS, REFINE_PREFIX, REFINE_LOWER, REFINE_UPPER, REFINE_MIN_LEN, REFINE_MAX_LEN = (
    1, 2, 3, 4, 5, 6)


def check_type(ty):
    """Raises BadValue unless `ty` is cty's JSON encoding of a type."""
    if ty in PRIMITIVES or ty == "dynamic":
        return
    if isinstance(ty, list) and len(ty) == 2:
        kind, inner = ty
        if kind in ("list", "set", "map"):
            return check_type(inner)
        if kind == "tuple" and isinstance(inner, list):
            for t in inner:
                check_type(t)
            return
        if kind == "object" and isinstance(inner, dict):
            for t in inner.values():
                check_type(t)
            return
    raise BadValue(f"not a type: {exactjson.dumps(ty)}")


def constraint(ty):
    """Terraform's type constraint text for `ty`."""
    if ty in PRIMITIVES:
        return ty
    if ty == "dynamic":
        return "any"
    kind, inner = ty
    if kind in ("list", "set", "map"):
        return f"{kind}({constraint(inner)})"
    if kind == "tuple":
        return "tuple([" + ", ".join(constraint(t) for t in inner) + "])"
    for name in inner:
        if not IDENTIFIER.match(name):
            raise Inexpressible(
                f"a type constraint cannot name the object attribute {json.dumps(name)}")
    return "object({" + ", ".join(f"{n} = {constraint(t)}" for n, t in inner.items()) + "})"


def quote(text):
    """A quoted HCL string literal whose value is `text`."""
    out = ['"']
    i = 0
    while i < len(text):
        c = text[i]
        if c in "$%" and text.startswith("{", i + 1):
            out.append(c + c + "{")
            i += 2
            continue
        if c == "\\":
            out.append("\\\\")
        elif c == '"':
            out.append('\\"')
        elif c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t")
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(c)
        i += 1
    out.append('"')
    return "".join(out)


def render(typed, unknown_expr, typed_node=None, node_keeps_negative_zero=True):
    """The Terraform expression of a protocol typed value (a dict with `type`, `value` and
    optionally `unknown` and `sensitive` paths). `unknown_expr` is an expression whose value
    is an unknown of the dynamic pseudo-type.

    `typed_node(argument, constraint)`, when given, stands in for Terraform's `convert`
    function, which Terraform has from 1.15 only (see `_ConversionNodes`): it returns an
    expression whose value is that of the expression `argument` converted to the type
    constraint `constraint` (the engine passes it through a module's typed input
    variable). `node_keeps_negative_zero`: whether such a node keeps the sign of a zero
    inside its argument (Terraform 1.6 drops it from the value of a module's input variable,
    so that `toset([-0, 0])` passed to one has one element); where it does not, a negative
    zero inside a node is `Inexpressible`."""
    ty = typed["type"]
    check_type(ty)
    unknown = {tuple(p) for p in typed.get("unknown", [])}
    sensitive = {tuple(p) for p in typed.get("sensitive", [])}
    renderer = _Renderer(unknown, sensitive, unknown_expr)
    if typed_node is not None:
        renderer = _ConversionNodes(renderer, typed_node, node_keeps_negative_zero)
    return renderer.value(ty, typed["value"], ())


class _Renderer:
    def __init__(self, unknown, sensitive, unknown_expr):
        self.unknown = unknown
        self.sensitive = sensitive
        self.unknown_expr = unknown_expr

    def value(self, ty, val, path, in_collection=False):
        text = self.unmarked(ty, val, path)
        if path in self.sensitive:
            if in_collection:
                raise Inexpressible("a sensitive mark inside a list, set or map")
            text = f"sensitive({text})"
        return text

    def unmarked(self, ty, val, path):
        if path in self.unknown:
            if ty == "dynamic":
                return self.unknown_expr
            return f"convert({self.unknown_expr}, {constraint(ty)})"
        if ty == "dynamic":
            if val is None:
                return "null"
            if not isinstance(val, dict) or set(val) != {"value", "type"}:
                raise BadValue("a value of type dynamic must be {\"value\": V, \"type\": T}")
            check_type(val["type"])
            return self.unmarked(val["type"], val["value"], path)
        if val is None:
            return f"convert(null, {constraint(ty)})"
        if ty == "string":
            if not isinstance(val, str):
                raise BadValue("a string value must be a JSON string")
            return quote(val)
        if ty == "number":
            if isinstance(val, str) and val in INFINITIES:
                return INFINITIES[val]
            if isinstance(val, bool) or not isinstance(val, (int, decimal.Decimal)):
                raise BadValue("a number value must be a JSON number")
            return exactjson.number_text(val)
        if ty == "bool":
            if not isinstance(val, bool):
                raise BadValue("a bool value must be true or false")
            return "true" if val else "false"
        kind, inner = ty
        if kind in ("list", "set", "tuple"):
            if not isinstance(val, list):
                raise BadValue(f"a {kind} value must be a JSON array")
            if kind == "tuple" and len(val) != len(inner):
                raise BadValue("a tuple value must have one element per element type")
            types = inner if kind == "tuple" else [inner] * len(val)
            items = [self.value(t, v, path + (i,), kind != "tuple")
                     for i, (t, v) in enumerate(zip(types, val))]
            text = "[" + ", ".join(items) + "]"
            return text if kind == "tuple" else f"convert({text}, {constraint(ty)})"
        if not isinstance(val, dict):
            raise BadValue(f"a {kind} value must be a JSON object")
        if kind == "object" and set(val) != set(inner):
            raise BadValue("an object value must have exactly its type's attributes")
        items = []
        for key, v in val.items():
            t = inner if kind == "map" else inner[key]
            items.append(f"{quote(key)} = {self.value(t, v, path + (key,), kind == 'map')}")
        text = "{" + ", ".join(items) + "}"
        return text if kind == "object" else f"convert({text}, {constraint(ty)})"


class _ConversionNodes:
    """Rendering without Terraform's `convert` function (before 1.15).

    A part that a literal cannot write exactly (a list, set or map, a typed null, an unknown
    of a known type, or a tuple or object holding one) becomes one conversion node: the part
    written plainly (a literal, with `null` and the unknown for its nulls and unknowns) is
    converted to the part's type constraint by `typed_node`, which converts as `convert`
    does. The node is as high up the value as it can be, most often the whole value: the
    fewer nodes, the smaller the configuration (a module per node). Inside a node's
    argument, where its type says `any`, a value keeps its own type, so a value there that
    needs converting is a node of its own. Sensitive marks cannot be passed into a node (a
    module output is sensitive as a whole or not at all): they are put back afterwards, by
    rebuilding the node's value as tuple and object constructors down to each marked part,
    so a mark inside a list, set or map is `Inexpressible`."""

    def __init__(self, renderer, typed_node, keeps_negative_zero):
        self.renderer = renderer
        self.keeps_negative_zero = keeps_negative_zero
        self.unknown = renderer.unknown
        self.sensitive = renderer.sensitive
        self.unknown_expr = renderer.unknown_expr
        self.typed_node = typed_node

    def value(self, ty, val, path):
        if not self.needs_conversion(ty, val, path):
            return self.renderer.value(ty, val, path)
        ty, val = self.unwrapped(ty, val, path)
        try:
            node = self.node(ty, val, path)
        except Inexpressible:
            # A type constraint cannot name an attribute that is not an identifier: convert
            # the parts of a tuple or object separately.
            if not (isinstance(ty, list) and ty[0] in ("tuple", "object")) or val is None \
                    or path in self.unknown:
                raise
            text = self.structure(ty, val, path, self.value)
            return f"sensitive({text})" if path in self.sensitive else text
        return self.remarked(node, ty, val, path)

    def needs_conversion(self, ty, val, path):
        if path in self.unknown:
            return ty != "dynamic"
        if ty == "dynamic":
            return val is not None and self.needs_conversion(*_wrapped(val), path)
        if val is None or ty in PRIMITIVES:
            return val is None
        kind, inner = ty
        if kind in ("list", "set", "map"):
            return True
        if not isinstance(val, list if kind == "tuple" else dict):
            return True  # `structure` refuses it
        if kind == "tuple":
            return any(self.needs_conversion(t, v, path + (i,))
                       for i, (t, v) in enumerate(zip(inner, val)))
        return any(self.needs_conversion(inner.get(k, "dynamic"), v, path + (k,))
                   for k, v in val.items())

    def unwrapped(self, ty, val, path):
        """The type and value of a part, looking through the dynamic pseudo-type."""
        if ty == "dynamic" and path not in self.unknown and val is not None:
            return self.unwrapped(*_wrapped(val), path)
        return ty, val

    def node(self, ty, val, path):
        return self.typed_node(self.argument(ty, val, path), constraint(ty))

    def argument(self, ty, val, path):
        """A part written plainly, for a node to convert."""
        if path in self.unknown:
            return self.unknown_expr
        if ty == "dynamic":
            if val is None:
                return "null"
            inner_ty, inner_val = self.unwrapped(ty, val, path)
            if self.needs_conversion(inner_ty, inner_val, path):
                return self.node(inner_ty, inner_val, path)
            return self.argument(inner_ty, inner_val, path)
        if val is None:
            return "null"
        if ty in PRIMITIVES:
            if (ty == "number" and isinstance(val, decimal.Decimal) and val.is_zero()
                    and val.is_signed() and not self.keeps_negative_zero):
                raise Inexpressible("a negative zero inside a value converted by a module "
                                    "(this Terraform drops its sign)")
            return self.renderer.unmarked(ty, val, path)
        return self.structure(ty, val, path, self.argument)

    def structure(self, ty, val, path, part):
        """The tuple or object literal of a list, set, tuple, map or object, each element
        written by `part(type, value, path)`."""
        kind, inner = ty
        if kind in ("list", "set", "tuple"):
            if not isinstance(val, list) or (kind == "tuple" and len(val) != len(inner)):
                raise BadValue(f"a {kind} value must be a JSON array of its length")
            types = inner if kind == "tuple" else [inner] * len(val)
            return "[" + ", ".join(part(t, v, path + (i,))
                                   for i, (t, v) in enumerate(zip(types, val))) + "]"
        if not isinstance(val, dict) or (kind == "object" and set(val) != set(inner)):
            raise BadValue(f"a {kind} value must be a JSON object of its attributes")
        return "{" + ", ".join(
            f"{quote(k)} = {part(inner if kind == 'map' else inner[k], v, path + (k,))}"
            for k, v in val.items()) + "}"

    def remarked(self, expr, ty, val, path):
        """`expr`, whose value is the part at `path` without marks, with the part's marks."""
        text = expr
        inside = [p for p in self.sensitive if len(p) > len(path) and p[:len(path)] == path]
        ty, val = self.unwrapped(ty, val, path)
        if inside and val is not None and path not in self.unknown and isinstance(ty, list):
            kind, inner = ty
            if kind == "tuple":
                text = "[" + ", ".join(self.remarked(f"{expr}[{i}]", t, v, path + (i,))
                                       for i, (t, v) in enumerate(zip(inner, val))) + "]"
            elif kind == "object":
                text = "{" + ", ".join(
                    f"{quote(k)} = {self.remarked(f'{expr}[{quote(k)}]', inner[k], v, path + (k,))}"
                    for k, v in val.items()) + "}"
            else:
                raise Inexpressible("a sensitive mark inside a list, set or map")
        return f"sensitive({text})" if path in self.sensitive else text


def _wrapped(val):
    """The type and value inside a value of the dynamic pseudo-type."""
    if not isinstance(val, dict) or set(val) != {"value", "type"}:
        raise BadValue("a value of type dynamic must be {\"value\": V, \"type\": T}")
    check_type(val["type"])
    return val["type"], val["value"]


def decode_planned(data):
    """A protocol typed value (without sensitive paths) from cty's msgpack encoding of a value
    against the dynamic pseudo-type. The paths of numbers whose text the encoding does not
    determine (see `AMBIGUOUS_WHOLE` and `_go_text_unsure`) are under `ambiguous`: not a protocol field."""
    raw = msgpack.unpackb(data, raw=False, strict_map_key=False, ext_hook=_ext,
                          use_list=True)
    if isinstance(raw, Unknown):
        return {"type": "dynamic", "value": None, "unknown": [[]]}
    if not (isinstance(raw, list) and len(raw) == 2 and isinstance(raw[0], (bytes, str))):
        raise ValueError("a dynamic value is not encoded as [type, value]")
    type_text = raw[0].decode() if isinstance(raw[0], bytes) else raw[0]
    ty = exactjson.loads(type_text)
    unknown, refinements, ambiguous = [], [], []
    value = _from_msgpack(ty, raw[1], [], unknown, refinements, ambiguous)
    typed = {"type": ty, "value": value}
    if unknown:
        typed["unknown"] = unknown
    if refinements:
        typed["refinements"] = refinements
    if ambiguous:
        typed["ambiguous"] = ambiguous
    return typed


def decode_key(data):
    """A path step's key (a list index or a map key) from its msgpack encoding."""
    key = msgpack.unpackb(data, raw=False, strict_map_key=False, ext_hook=_ext)
    if isinstance(key, float) and key.is_integer():
        key = int(key)
    return key


def _ext(code, data):
    if code == UNKNOWN_EXT[1] and data:
        return Unknown(_refinements(data))
    if code in UNKNOWN_EXT:
        return UNKNOWN
    return msgpack.ExtType(code, data)


def _refinements(data):
    """The protocol fields of cty's msgpack refinement map (an extension body that is a map
    from small integer keys; unknown keys are skipped, as cty skips them)."""
    raw = msgpack.unpackb(data, raw=False, strict_map_key=False, use_list=True)
    if not isinstance(raw, dict):
        raise ValueError("an unknown value's refinements are not a map")
    out = {}
    for key, v in raw.items():
        if key == REFINE_NULLNESS and v is False:
            out["not_null"] = True
        elif key == REFINE_PREFIX and isinstance(v, str) and v:
            out["string_prefix"] = v
        elif key in (REFINE_LOWER, REFINE_UPPER):
            bound, inclusive = v
            name = "number_lower" if key == REFINE_LOWER else "number_upper"
            out[name] = {"value": exactjson.number_text(_number(bound)),
                         "inclusive": bool(inclusive)}
        elif key in (REFINE_MIN_LEN, REFINE_MAX_LEN):
            length = v[0] if isinstance(v, list) else v
            out["length_lower" if key == REFINE_MIN_LEN else "length_upper"] = int(length)
    return out


def _from_msgpack(ty, raw, path, unknown, refinements, ambiguous):
    if isinstance(raw, Unknown):
        unknown.append(list(path))
        if raw.refinements:
            refinements.append({"path": list(path), **raw.refinements})
        return None
    if raw is None:
        return None
    if ty == "number":
        if isinstance(raw, float) and (raw.is_integer() and abs(raw) >= AMBIGUOUS_WHOLE
                                       or _go_text_unsure(raw)):
            ambiguous.append(list(path))
        return _number(raw)
    if ty in PRIMITIVES:
        return raw
    if ty == "dynamic":
        raise ValueError("a known value of the dynamic pseudo-type")
    kind, inner = ty
    parts = (unknown, refinements, ambiguous)
    if kind in ("list", "set"):
        return [_from_msgpack(inner, v, path + [i], *parts) for i, v in enumerate(raw)]
    if kind == "tuple":
        return [_from_msgpack(t, v, path + [i], *parts)
                for i, (t, v) in enumerate(zip(inner, raw))]
    if kind == "map":
        return {k: _from_msgpack(inner, v, path + [k], *parts) for k, v in raw.items()}
    return {k: _from_msgpack(inner[k], raw[k], path + [k], *parts) for k in inner}


def _go_text_unsure(raw):
    """Whether Go's text of a float that is not whole, read back at precision 53, may not be
    its repr (see the note at `AMBIGUOUS_WHOLE`): a power of two, where a shorter decimal may
    lie within half a unit of the last place above it, below it; or a subnormal, whose 53 bits
    of precision are finer than the float64's and need more digits."""
    if raw.is_integer() or not math.isfinite(raw):
        return False
    magnitude = abs(raw)
    mantissa, exponent = math.frexp(magnitude)
    if mantissa != 0.5 and magnitude >= sys.float_info.min:
        return False
    exact = fractions.Fraction(magnitude)
    # Half a unit of the last place at precision 53, for a mantissa in [0.5, 1).
    half_ulp = fractions.Fraction(2) ** (exponent - 54)
    shortest = decimal.Decimal(repr(magnitude))
    if abs(fractions.Fraction(shortest) - exact) >= half_ulp:
        return True
    with decimal.localcontext() as ctx:
        for digits in range(1, len(shortest.as_tuple().digits)):
            ctx.prec = digits
            for rounding in (decimal.ROUND_FLOOR, decimal.ROUND_CEILING):
                ctx.rounding = rounding
                if abs(fractions.Fraction(+decimal.Decimal(magnitude)) - exact) <= half_ulp:
                    return True
    return False


def _number(raw):
    """cty's msgpack number: an int, a float64 holding the exact value, or the exact decimal
    text (`big.Float.Text('f', -1)`)."""
    if isinstance(raw, bool):
        raise ValueError("a bool where a number was expected")
    if isinstance(raw, int):
        return raw
    if isinstance(raw, float):
        if raw == float("inf"):
            return "Infinity"
        if raw == float("-inf"):
            return "-Infinity"
        # cty writes a float64 here only when it holds the value exactly, and reads it back
        # at precision 53, whose text (`big.Float.Text('f', -1)`) is the shortest decimal that
        # reads back at that precision: Python's repr of the float, but at a power of two
        # (see `_go_text_unsure`), whose text the oracle asks of Terraform.
        return decimal.Decimal(repr(raw))
    return decimal.Decimal(raw)
