"""pygohcl (PyPI: Python bindings over a Go build of hashicorp/hcl; 1.2.9
bundles HCL v2.24.0 with go-cty v1.18.1) as an hclspec engine, protocol v1,
at the parse level.

``pygohcl.loads`` parses the request wrapped into a body with Go's
``hclsyntax`` and converts it to JSON; its ``HCLParseError`` (a diagnostic
from parsing) is a rejection. Values are not answered: the conversion gives
an expression that is not a literal back as its source text, a string just
like a string literal's value, so no value can be told from source text.
The conversion evaluates operators on constants; its errors come after
parsing succeeded (the source is answered ``parsed``), but a Go panic in it
is a ``crash``.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python-common"))

import re  # noqa: E402

import pygohcl  # noqa: E402

from hclspec_adapter import Rejected, Unsupported, parse_answer, serve  # noqa: E402


# pygohcl decodes the JSON of its conversion with Python's json module,
# whose integers are limited to 4300 digits by default (1e5000 is a literal).
sys.set_int_max_str_digits(0)

# After parsing, the conversion evaluates constant expressions; its errors
# (HCLInternalError with this prefix) say the source parsed.
CONVERSION_ERROR = "cannot convert HCL to Go map representation"


UNSUPPORTED_NUL = "a source with a NUL byte (pygohcl passes C strings, which end there)"


def parse_body(text):
    if "\0" in text:
        raise Unsupported(UNSUPPORTED_NUL)
    try:
        pygohcl.loads(text)
    except pygohcl.HCLParseError as e:
        raise Rejected(diagnostic_text(str(e))) from None
    except pygohcl.HCLInternalError as e:
        if not str(e).startswith(CONVERSION_ERROR):
            raise


def diagnostic_text(message):
    """Go's ``file:range: Summary; Detail`` as ``Summary`` and ``Detail`` on
    two lines (the range is in the wrapped body, not in the source)."""
    text = DIAGNOSTIC_PREFIX.sub("", message.removeprefix("invalid HCL: "), count=1)
    return text.replace("; ", "\n", 1)


DIAGNOSTIC_PREFIX = re.compile(r"^[^:]*:\d+,\d+-(\d+,)?\d+: ")


def answer(request):
    return parse_answer(request, parse_body)


if __name__ == "__main__":
    serve(answer)
