"""bc-python-hcl2 (PyPI; Bridgecrew's fork of python-hcl2 0.x, module
``hcl2``) as an hclspec engine, protocol v1.

Parse level: ``hcl2.loads`` on the request wrapped into a body (the
library's only entry point; it checks quotes and comments before its Lark
parser runs). Value level: ``hcl2.loads`` of ``a = <expr>``, whose
attributes come back as one-element lists. Answered where the dictionary
holds a value: ints, bools, null, strings (unquoted, as the library gives
them, heredocs included), tuples and objects of these. Expressions come back
as ``${...}`` source text and strings keep their escapes unprocessed: both
are answered ``unsupported``, as are Python floats.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python-common"))

import hcl2  # noqa: E402
import lark  # noqa: E402

from hclspec_adapter import WRAP_ATTRIBUTE, Rejected  # noqa: E402
from hclspec_adapter import answer_levels, plain_value, refuse_source_text, rejecting, serve, typed_value  # noqa: E402

UNSUPPORTED_EXPRESSION = "an expression bc-python-hcl2 gives back as source text"


# Before parsing, ``loads`` rejects a line with an odd number of quotes
# (outside heredocs and comments) with this ValueError.
UNCLOSED_QUOTES = "Line has unclosed quote marks"


def loads(text):
    try:
        return hcl2.loads(text)
    except ValueError as e:
        if str(e).startswith(UNCLOSED_QUOTES):
            raise Rejected(str(e)) from None
        raise


parse_body = rejecting(loads, lark.exceptions.UnexpectedInput)


def answer(request):
    return answer_levels(request, parse_body, expression_value)


def expression_value(loaded, _request):
    (value,) = loaded[WRAP_ATTRIBUTE]
    return {"result": typed_value(plain_value(value, string))}


def string(text):
    return refuse_source_text(text, UNSUPPORTED_EXPRESSION)


if __name__ == "__main__":
    serve(answer)
