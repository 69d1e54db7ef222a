"""hcl2-eval (PyPI) as an hclspec engine, protocol v1.

hcl2-eval evaluates the AST that hcl2-ast builds with python-hcl2 3.0.5's
parser: literals, tuples, objects, variables, attribute access and calls of
the functions one registers. Its operators raise ``NotImplementedError``;
anything else its AST keeps as text (a conditional, a template, an index).

Parse level: ``hcl2_ast.parse_string`` on the request wrapped into a body.
Value level: expressions whose AST holds only literals (ints, bools, null,
strings without escapes or template sequences), tuples, objects, variables
and attribute access (hcl2-ast 0.3.1 fails with a ``TypeError`` on every
object constructor, whose keys it makes AST nodes: a ``crash``), evaluated with the request's scope as the attributes
of a ``CommonStanza``. Operators, calls (the adapter registers no
functions), floats and text the AST kept unparsed are ``unsupported``.
"""

import os
import pdb
import sys
from decimal import Decimal

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python-common"))

import lark  # noqa: E402
from hcl2.lark_parser import Lark_StandAlone  # noqa: E402
from hcl2_ast import Array, FunctionCall, GetAttr, Identifier, Literal, Module, Object  # noqa: E402
from hcl2_ast.transformer import ToAstTransformer  # noqa: E402
from hcl2_eval import CommonStanza, ConfigurationError, Context, Evaluator  # noqa: E402

from hclspec_adapter import WRAP_ATTRIBUTE, Unsupported  # noqa: E402
from hclspec_adapter import answer_levels, rejecting, serve, typed_value  # noqa: E402

UNSUPPORTED_OPERATORS = "operators (hcl2-eval raises NotImplementedError)"
UNSUPPORTED_CALLS = "function calls (the adapter registers no functions)"
UNSUPPORTED_TEXT = "an expression hcl2-ast keeps as text (templates, escapes, conditionals, ...)"
UNSUPPORTED_FLOAT = "a number hcl2-ast reads as a Python float (not exact)"
UNSUPPORTED_SCOPE = "a scope value hcl2-eval can not hold (unknown, or not an integer number)"


class DebuggerEntered(Exception):
    """hcl2-ast calls ``pdb.set_trace()`` on some inputs: it would read the
    protocol's input as debugger commands."""


def refuse_debugger(*_args, **_kwargs):
    raise DebuggerEntered("hcl2-ast entered the Python debugger (pdb.set_trace) on this input")


pdb.set_trace = refuse_debugger


# hcl2_ast.parse_string, with the parser built once instead of per call
# (building it takes about 70 ms).
PARSER = Lark_StandAlone(transformer=ToAstTransformer())


def parse_string(text):
    return Module(PARSER.parse(text + "\n"))


parse = rejecting(parse_string, lark.exceptions.UnexpectedInput)


def answer(request):
    return answer_levels(request, parse, expression_value)


def expression_value(module, request):
    (attribute,) = module.body
    assert attribute.key == WRAP_ATTRIBUTE
    names = check_evaluable(attribute.value, request["source"])
    root = CommonStanza()
    for name, typed in request.get("scope", {}).items():
        value = scope_value(typed)
        if value is UNREPRESENTABLE:
            if name in names:
                raise Unsupported(UNSUPPORTED_SCOPE)
            continue
        root.attributes[name] = value
    try:
        result = Evaluator().evaluate(attribute.value, Context(root))
    except ConfigurationError as e:
        return {"error": {"phase": "eval", "summary": e.message, "detail": str(e)}}
    return {"result": typed_value(result)}


def check_evaluable(expr, source):
    """The variable names ``expr`` uses; raises ``Unsupported`` for what the
    evaluator can not do exactly.

    What hcl2-ast does not turn into nodes (conditionals, indexes, for
    expressions) it keeps as a string ``Literal`` of its nodes' repr: a
    string literal is taken as one only when it stands quoted in the source.
    """
    if isinstance(expr, Literal):
        value = expr.value
        if isinstance(value, float):
            raise Unsupported(UNSUPPORTED_FLOAT)
        if isinstance(value, str) and (
            f'"{value}"' not in source or "\\" in value or "${" in value or "%{" in value
        ):
            raise Unsupported(UNSUPPORTED_TEXT)
        return set()
    if isinstance(expr, Array):
        return set().union(*(check_evaluable(v, source) for v in expr.values))
    if isinstance(expr, Object):
        return set().union(*(check_evaluable(v, source) for v in expr.fields.values()))
    if isinstance(expr, Identifier):
        return {expr.name}
    if isinstance(expr, GetAttr):
        return check_evaluable(expr.on, source)
    if isinstance(expr, FunctionCall):
        raise Unsupported(UNSUPPORTED_CALLS)
    raise Unsupported(UNSUPPORTED_OPERATORS)


UNREPRESENTABLE = object()


def scope_value(typed):
    """A typed value of the request's scope as a plain Python value, or
    ``UNREPRESENTABLE``."""
    if typed.get("unknown") or typed.get("sensitive"):
        return UNREPRESENTABLE
    try:
        return plain(typed["value"], typed["type"])
    except ValueError:
        return UNREPRESENTABLE


def plain(value, ty):
    """A cty JSON value of type ``ty`` as a plain value."""
    if value is None:
        return None
    if ty == "number":
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, Decimal) and value.is_finite() and value == value.to_integral_value():
            return int(value)
        raise ValueError("not an integer")
    if ty == "dynamic":
        return plain(value["value"], value["type"])
    if isinstance(ty, str):
        return value
    kind, inner = ty
    if kind in ("list", "set"):
        return [plain(v, inner) for v in value]
    if kind == "tuple":
        return [plain(v, t) for v, t in zip(value, inner)]
    if kind == "map":
        return {k: plain(v, inner) for k, v in value.items()}
    return {k: plain(v, inner[k]) for k, v in value.items()}


if __name__ == "__main__":
    serve(answer)
