"""python-hcl2 (PyPI) as an hclspec engine, protocol v1.

Parse level: ``hcl2.parses`` (the Lark parser and its rule tree) on the
request wrapped into a body. Value level: ``hcl2.loads`` of ``a = <expr>``,
answered where the library's dictionary holds the value itself: ints,
bools, null, string literals without escapes or interpolations, tuples and
objects of these. Everything else it gives back as source text (``${...}``)
or as a Python float, and is answered ``unsupported``.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python-common"))

import hcl2  # noqa: E402
import lark  # noqa: E402

from hclspec_adapter import WRAP_ATTRIBUTE, Rejected, Unsupported  # noqa: E402
from hclspec_adapter import answer_levels, plain_value, refuse_source_text, rejecting, serve, typed_value  # noqa: E402

UNSUPPORTED_EXPRESSION = "an expression python-hcl2 gives back as source text"
UNSUPPORTED_HEREDOC = "a heredoc or a string starting with '<<' (given back as source text)"


def parses(text):
    """``hcl2.parses``; its transformer rejects unterminated template
    directives with a ``RuntimeError``, which Lark wraps."""
    try:
        return hcl2.parses(text)
    except lark.exceptions.VisitError as e:
        if isinstance(e.orig_exc, RuntimeError):
            raise Rejected(str(e.orig_exc)) from None
        raise


parse_body = rejecting(parses, lark.exceptions.UnexpectedInput)


def answer(request):
    return answer_levels(request, parse_body, expression_value)


def expression_value(tree, _request):
    loaded = hcl2.serialize(tree)
    value = plain_value(loaded[WRAP_ATTRIBUTE], string_literal, object_key)
    return {"result": typed_value(value)}


def string_literal(text):
    """Strings arrive with their quotes (``'"b"'``), other expressions as
    ``'${...}'``, heredocs as their source text."""
    if len(text) < 2 or not (text.startswith('"') and text.endswith('"')):
        raise Unsupported(UNSUPPORTED_EXPRESSION)
    inner = text[1:-1]
    if inner.startswith("<<"):
        raise Unsupported(UNSUPPORTED_HEREDOC)
    return refuse_source_text(inner, UNSUPPORTED_EXPRESSION)


def object_key(key):
    if key.startswith('"'):
        return string_literal(key)
    if key.startswith("${"):
        raise Unsupported(UNSUPPORTED_EXPRESSION)
    return key


if __name__ == "__main__":
    serve(answer)
