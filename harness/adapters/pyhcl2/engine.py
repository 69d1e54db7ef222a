"""pyhcl2 (PyPI) as an hclspec engine, protocol v1, at the parse level.

pyhcl2 parses HCL with its own Lark (LALR) grammar, derived from an early
python-hcl2 grammar, and evaluates the tree with functions the caller
supplies. It parses a lone expression (``parse_expr``, the grammar's
``start_expr``) as well as a body (``parse_module``): expressions go to the
former, unwrapped, bodies to the latter, and a bare template is wrapped into
a heredoc attribute of a body. Its grammar keeps line breaks as tokens where
HCL's ``ParseExpression`` skips them, and takes a string or heredoc whole,
without parsing the template inside. Rejections are its
``DiagnosticError``, which gives a code and a message.
"""

import functools
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python-common"))

import lark  # noqa: E402
import pyhcl2.parse  # noqa: E402
from pyagnostics.exceptions import DiagnosticError  # noqa: E402

from hclspec_adapter import Rejected, parse_answer, serve  # noqa: E402


class OnceBuiltLark:
    """pyhcl2 opens its grammar anew on every parse (``Lark.open`` with
    ``cache=True``, which still loads the tables from disk: about 0.3 s a
    call). The parser holds no state between parses, so each one pyhcl2
    asks for (one per start rule) is built once and kept."""

    open = staticmethod(functools.cache(lark.Lark.open))


pyhcl2.parse.Lark = OnceBuiltLark


def rejecting(parse):
    def parse_text(text):
        try:
            parse(text)
        except DiagnosticError as e:
            raise Rejected(f"{e.message} ({e.code})") from None

    return parse_text


parse_body = rejecting(pyhcl2.parse.parse_module)
parse_expression = rejecting(pyhcl2.parse.parse_expr)


def answer(request):
    return parse_answer(request, parse_body, parse_expression)


if __name__ == "__main__":
    serve(answer)
