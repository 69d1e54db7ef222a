"""Protocol v1 plumbing shared by the Python adapters of HCL parsers.

Most HCL libraries for Python parse whole files (bodies) and turn them into
dictionaries; none evaluates Terraform's expression language. An adapter
therefore answers at the parse level (``parsed``, or a parse error) and, where
the library's output is a value that maps exactly onto a typed value, at the
value level. This module holds what every such adapter needs:

- ``serve``: the request loop (one JSON line in, one JSON line out, flushed);
- ``parse_answer``: the parse-level answer for every request kind, given a
  function that parses one HCL body with the library;
- ``expression_bodies`` and ``template_body``: how an expression or a bare
  template is wrapped into a body the library reads (harness/adapters/README.md
  says what the wrapping can not express);
- ``typed_value``: a typed value from plain Python values, refusing floats.

Numbers never pass through a float: requests are read with exact decimals,
and a library value that is a Python float is answered ``unsupported``.
"""

import functools
import json
import re
import sys
import traceback
from decimal import Decimal

UNSUPPORTED_DIALECT = "dialects other than HCL2"
UNSUPPORTED_KIND = "request kinds other than expression, template, convert and body"
UNSUPPORTED_TYPE_CONSTRAINT = (
    "reading a type constraint: a parser accepts any expression in its place"
)
UNSUPPORTED_FLOAT = "a number the library gives as a Python float (not exact)"
UNSUPPORTED_VALUE_KIND = "values of templates, conversions and bodies"
UNSUPPORTED_STRING = "a string with escapes, interpolations or directives (left unprocessed)"

MSG_NOT_UTF8 = "the request line is not UTF-8"

# The attribute name expressions are wrapped into.
WRAP_ATTRIBUTE = "a"
# The heredoc marker templates are wrapped into (a fresh one is chosen when
# the template contains it).
HEREDOC_MARKER = "HCLSPEC_TEMPLATE_END"


class Unsupported(Exception):
    """The library (or the wrapping) can not answer this request."""


class Rejected(Exception):
    """The library rejected the source: a parse error, with its message."""


def serve(answer, stdin=None, stdout=None):
    """Answers every request line of ``stdin`` on ``stdout`` until end of input.

    ``answer(request)`` returns the response's outcome as a dict (``{"parsed":
    true}``, ``{"result": ...}``, ``{"error": ...}``), or raises
    ``Unsupported`` or ``Rejected``; any other exception is a ``crash``.
    """
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout
    for raw in stdin:
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            response = {"id": None, "error": {"phase": "request", "summary": MSG_NOT_UTF8}}
        else:
            if not line.strip():
                continue
            response = respond(answer, line)
        # ASCII output: a lone surrogate from a JSON escape stays an escape.
        stdout.write(json.dumps(response) + "\n")
        stdout.flush()


def respond(answer, line):
    """The response to one request line."""
    try:
        request = read_request(line)
    except RequestError as e:
        return {"id": e.request_id, "error": {"phase": "request", "summary": str(e)}}
    try:
        outcome = answer(request)
    except Unsupported as e:
        outcome = {"unsupported": str(e)}
    except Rejected as e:
        outcome = parse_error(str(e))
    except Exception:  # noqa: BLE001 -- any library failure is a crash answer
        outcome = {"crash": traceback.format_exc(limit=-3).strip()}
    return {"id": request["id"], **outcome}


class RequestError(Exception):
    def __init__(self, message, request_id=None):
        super().__init__(message)
        self.request_id = request_id


def read_request(line):
    """The request of one line; numbers are read as exact decimals."""
    try:
        request = json.loads(line, parse_float=Decimal)
    except ValueError as e:
        raise RequestError(f"invalid JSON: {e}") from None
    if not isinstance(request, dict):
        raise RequestError("a request is a JSON object")
    request_id = request.get("id")
    if not isinstance(request_id, str):
        raise RequestError("the request has no string id")
    for field in ("kind", "source"):
        if not isinstance(request.get(field), str):
            raise RequestError(f"the request has no string {field}", request_id)
    if request["kind"] == "convert" and not isinstance(request.get("type"), str):
        raise RequestError("a convert request has no string type", request_id)
    return request


def rejecting(parse, errors):
    """``parse`` with the library's parse errors (the exception types
    ``errors``) raised as ``Rejected``."""

    def parse_body(text):
        try:
            return parse(text)
        except errors as e:
            raise Rejected(str(e)) from None

    return parse_body


def parse_error(message):
    """A parse error answer; the summary is the first line of the library's message."""
    lines = message.strip().splitlines() or ["the library rejected the source"]
    return {"error": {"phase": "parse", "summary": lines[0][:200], "detail": message[:2000]}}


def parse_answer(request, parse_body, parse_expression=None):
    """The parse-level answer: ``parse_body(text)`` raises ``Rejected`` for a
    body the library does not accept. Expressions are wrapped into bodies,
    unless the library parses them itself: then ``parse_expression(text)``
    does, raising ``Rejected`` likewise."""
    check_dialect(request)
    if parse_expression is None:
        parse_expression = functools.partial(parse_wrapped_expression, parse_body=parse_body)
    kind = request["kind"]
    if kind == "expression":
        parse_expression(request["source"])
    elif kind == "template":
        parse_body(template_body(request["source"]))
    elif kind == "body":
        parse_body(request["source"])
    elif kind == "convert":
        parse_expression(request["source"])
        parse_expression(request["type"])
        raise Unsupported(UNSUPPORTED_TYPE_CONSTRAINT)
    else:
        raise Unsupported(UNSUPPORTED_KIND)
    return {"parsed": True}


def answer_levels(request, parse_body, expression_value):
    """The answer of an adapter with a value level for expressions.

    At the parse level, ``parse_answer``. Else only expressions are answered:
    ``expression_value(parsed)`` gets what ``parse_body`` returned for
    ``a = <source>`` (the first of ``expression_bodies``) and returns the
    outcome.
    """
    if request.get("level") == "parse":
        return parse_answer(request, parse_body)
    check_dialect(request)
    if request["kind"] != "expression":
        raise Unsupported(UNSUPPORTED_VALUE_KIND)
    parsed = [parse_body(body) for body in expression_bodies(request["source"])]
    return expression_value(parsed[0], request)


def check_dialect(request):
    if request.get("dialect", "hcl2") != "hcl2":
        raise Unsupported(UNSUPPORTED_DIALECT)


def parse_wrapped_expression(source, parse_body):
    for body in expression_bodies(source):
        parse_body(body)


def expression_bodies(source):
    """The bodies an expression is wrapped into; it parses when all of them do.

    On one line, ``a = <source>`` reads the expression exactly as HCL's
    ``ParseExpression`` would. Across lines it can not: inside a body a line
    break ends the attribute, while ``ParseExpression`` reads line breaks as
    spaces. Inside brackets HCL reads them as spaces too, so the expression is
    wrapped in parentheses, and also in a tuple: a source that closes the
    parenthesis itself (``1) + (2``) breaks the tuple's brackets, and one that
    closes the tuple's bracket breaks the parentheses, so a source accepted by
    both wrappings is one expression.
    """
    if "\n" not in source and "\r" not in source:
        return [f"{WRAP_ATTRIBUTE} = {source}\n"]
    # The line break before the closing bracket ends a trailing comment; but
    # it would also end a heredoc whose closing marker is the source's last
    # line, which HCL rejects for want of that line break.
    end = "" if ends_with_heredoc_marker(source) else "\n"
    return [
        f"{WRAP_ATTRIBUTE} = ({source}{end})\n",
        f"{WRAP_ATTRIBUTE} = [{source}{end}]\n",
    ]


def ends_with_heredoc_marker(source):
    """Whether the last line of ``source`` is the marker of a heredoc the
    source opens (``<<EOT\nhi\nEOT``, with no line break after it)."""
    last = source.rsplit("\n", 1)[-1].strip()
    return bool(last) and re.search(f"<<-?{re.escape(last)}\r?\n", source) is not None


def heredoc_marker(source):
    """A heredoc marker that occurs nowhere in ``source``."""
    marker, n = HEREDOC_MARKER, 0
    while marker in source:
        n += 1
        marker = f"{HEREDOC_MARKER}_{n}"
    return marker


def template_body(source):
    """A bare template wrapped into a heredoc: ``a = <<M\\n<source>\\nM\\n``.

    HCL reads a heredoc's lines as it reads a bare template (no backslash
    escapes, ``$${`` and ``%%{`` escape the sequences), so acceptance carries
    over; the value gains a final line break, so only acceptance is asked.
    """
    marker = heredoc_marker(source)
    return f"{WRAP_ATTRIBUTE} = <<{marker}\n{source}\n{marker}\n"


def typed_value(value, float_number=None):
    """The typed value (protocol JSON) of a plain Python value.

    Lists become tuples and dicts objects, as the value level compares them;
    ``None`` is a null of type ``dynamic``. Ints are exact; a float raises
    ``Unsupported``, unless ``float_number`` is given: then it is the float's
    protocol number (for a library whose own values are floats).
    """
    ty, encoded = encode(value, float_number)
    return {"type": ty, "value": encoded}


def encode(value, float_number=None):
    if value is None:
        return "dynamic", None
    if isinstance(value, bool):
        return "bool", value
    if isinstance(value, int):
        return "number", value
    if isinstance(value, float):
        if float_number is None:
            raise Unsupported(UNSUPPORTED_FLOAT)
        return "number", float_number(value)
    if isinstance(value, str):
        return "string", value
    if isinstance(value, list):
        pairs = [encode(v, float_number) for v in value]
        return ["tuple", [t for t, _ in pairs]], [v for _, v in pairs]
    if isinstance(value, dict):
        pairs = {k: encode(v, float_number) for k, v in value.items()}
        return ["object", {k: t for k, (t, _) in pairs.items()}], {
            k: v for k, (_, v) in pairs.items()
        }
    raise Unsupported(f"a library value of Python type {type(value).__name__}")


def plain_value(value, string, key=None):
    """Maps a library's dictionary output onto plain values: ``string(text)``
    gives the value a string of the output stands for (raising
    ``Unsupported`` where it is source text rather than a value), ``key``
    does the same for object keys (default: ``string``)."""
    key = key or string
    if isinstance(value, str):
        return string(value)
    if isinstance(value, list):
        return [plain_value(v, string, key) for v in value]
    if isinstance(value, dict):
        return {key(k): plain_value(v, string, key) for k, v in value.items()}
    return value


def refuse_source_text(text, unsupported_expression):
    """``text`` itself, unless it is source text a library left unprocessed:
    an expression (``${...}``) or a string with escapes or template
    sequences."""
    if text.startswith("${"):
        raise Unsupported(unsupported_expression)
    if "\\" in text or "${" in text or "%{" in text:
        raise Unsupported(UNSUPPORTED_STRING)
    return text
