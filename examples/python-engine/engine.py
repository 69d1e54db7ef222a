#!/usr/bin/env python3
"""Example hclspec engine: a tiny, honest subset of Terraform expressions.

Speaks engine protocol v1 (docs/protocol.md): one JSON request per line on stdin, one answer
per line on stdout. Whatever the subset (see README.md) does not cover is answered
"unsupported" rather than guessed, because runners count unsupported apart from wrong.
"""
import json
import re
import sys
from fractions import Fraction

MAX_DEPTH = 100  # Deeper nesting is unsupported rather than a Python stack overflow.
MANTISSA_BITS = 512  # cty numbers are binary floats; literals are read at 512 bits.
# Go prints some powers of two beyond these bounds (2**513 and 2**-227 are the nearest) as a
# decimal that reads back as a neighbouring number, so exact answers there would not compare
# equal to the real library's.
MAX_MAGNITUDE, MAX_DENOMINATOR = 2**512, 2**200
PRIMITIVES = ("string", "number", "bool")
LEVELS = [("||",), ("&&",), ("==", "!="), ("+", "-"), ("*", "/")]  # HCL's, loosest first.
KEYWORDS = {"true": ("lit", "bool", True), "false": ("lit", "bool", False),
            "null": ("lit", "dynamic", None)}
PARSE_ERRORS = {  # HCL's own summaries (which runners compare) and details.
    "Missing expression": "Expected the start of an expression, but found the end of the file.",
    "Invalid expression":
        "Expected the start of an expression, but found an invalid expression token.",
    "Unbalanced parentheses": "Expected a closing parenthesis to terminate the expression.",
    "Extra characters after expression":
        "An expression was successfully parsed, but extra characters were found after it.",
}
# Every token of the subset. Strings leave out `\`, `$` and `%`, so escapes, interpolations and
# directives never need handling. Anything else (`.`, `[`, `<`, comments, ...) is unsupported.
TOKEN = re.compile(r'(?P<ws>[ \t]+|\r?\n)|(?P<num>[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?)'
                   r'|(?P<ident>[A-Za-z_][A-Za-z0-9_-]*)|(?P<str>"[ !#&-\[\]-~]*")'
                   r'|(?P<op>==|!=|&&|\|\||[-+*()!]|/(?![/*]))')  # `//` and `/*` open comments.


class Unsupported(Exception): pass  # The request needs what this engine does not implement.
class RequestError(Exception): pass  # The request line itself is malformed.
class HclError(Exception): pass  # Carries a diagnostic that real HCL is sure to report too.
class Num:  # A JSON number's text: reading it as a float would lose digits.
    def __init__(self, text): self.text = text


def diagnostic(phase, summary, detail, src, start, end):
    def at(i):  # Sources we judge are ASCII, so characters and bytes count alike.
        return {"line": src.count("\n", 0, i) + 1, "column": i - src.rfind("\n", 0, i), "byte": i}
    return HclError({"phase": phase, "summary": summary, "detail": detail,
                     "range": {"start": at(start), "end": at(end)}})


def tokenize(src):
    tokens, pos = [], 0
    while pos < len(src):
        m = TOKEN.match(src, pos)
        # HCL lexes `1.e5` or `1x` differently from us, so those are not ours to judge.
        if not m or m.lastgroup == "num" and re.match(r"[\w.]", src[m.end():m.end() + 1]):
            raise Unsupported(f"syntax at character {pos}: {src[pos:pos + 10]!r}")
        if m.lastgroup != "ws":  # A bare expression ignores newlines, as inside parentheses.
            kind = m.group() if m.lastgroup == "op" else m.lastgroup
            end = pos + 1 if kind == "str" else m.end()  # HCL's token there is the opening quote.
            tokens.append((kind, m.group(), pos, end))
        pos = m.end()
    return tokens + [("eof", "", pos, pos)]


class Parser:
    """Recursive descent following hclsyntax's parser, so that its first parse error is ours."""

    def __init__(self, src):
        self.src, self.tokens, self.i = src, tokenize(src), 0

    def fail(self, summary):
        start, end = self.tokens[self.i][2:]
        raise diagnostic("parse", summary, PARSE_ERRORS[summary], self.src, start, end)

    def parse(self):
        tree = self.binary(0, 0)
        if self.tokens[self.i][0] != "eof":
            self.fail("Extra characters after expression")
        return tree

    def binary(self, level, depth):
        if level == len(LEVELS):
            return self.term(depth)
        lhs = self.binary(level + 1, depth)
        while self.tokens[self.i][0] in LEVELS[level]:  # Left-associative: 1 - 2 - 3.
            self.i += 1
            lhs = ("bin", self.tokens[self.i - 1][0], lhs, self.binary(level + 1, depth))
        return lhs

    def term(self, depth):
        if depth > MAX_DEPTH:
            raise Unsupported(f"nesting deeper than {MAX_DEPTH}")
        kind, text, start, end = self.tokens[self.i]
        if kind not in ("-", "!", "(", "num", "str", "ident"):
            self.fail("Missing expression" if kind == "eof" else "Invalid expression")
        self.i += 1
        if kind in ("-", "!"):  # Binds tighter than every binary operator: -1 + 2 is (-1) + 2.
            return ("neg" if kind == "-" else "not", self.term(depth + 1))
        if kind == "(":
            inner = self.binary(0, depth + 1)
            if self.tokens[self.i][0] != ")":
                self.fail("Unbalanced parentheses")
            self.i += 1
            return inner
        if kind == "num":  # Converted at evaluation, so that a later parse error comes first.
            return ("num", text)
        if kind == "str":
            return ("lit", "string", text[1:-1])
        if self.tokens[self.i][0] == "(":  # An identifier before "(" is a call, even `true (1)`.
            raise Unsupported("function calls")
        return KEYWORDS.get(text, ("var", text, start, end))


def number(text):
    """The exact value of a decimal, if cty holds it without rounding (else unsupported)."""
    exponent = re.search(r"[eE]([+-]?[0-9]+)$", text)
    if len(text) > 2000 or exponent and abs(int(exponent.group(1))) > 1000:  # Python would crawl.
        raise Unsupported("number literals this long or this large")
    return exact(Fraction(text))


def exact(q):
    odd = abs(q.numerator) >> max(0, (q.numerator & -q.numerator).bit_length() - 1)
    if (q.denominator & (q.denominator - 1) or odd.bit_length() > MANTISSA_BITS
            or abs(q) >= MAX_MAGNITUDE or q.denominator > MAX_DENOMINATOR):
        raise Unsupported("numbers that cty's 512-bit binary floats round, or print inexactly")
    return q


def number_text(q):  # The exact decimal of q = n / 2**k, which has k digits after the point.
    k = q.denominator.bit_length() - 1
    digits = str(abs(q.numerator) * 5**k).rjust(k + 1, "0")
    return ("-" if q < 0 else "") + (digits[:-k] + "." + digits[-k:] if k else digits)


def decode_scope(scope):
    """Variables as (type, value), or as the reason why using them is unsupported.

    Values of other types are not checked, so a malformed one goes unreported: this engine
    could not use it anyway."""
    if not isinstance(scope, dict):
        raise RequestError("scope must be an object")
    out = {}
    for name, tv in scope.items():
        if not isinstance(tv, dict) or "type" not in tv or "value" not in tv:
            raise RequestError(f"scope variable {name!r} needs a type and a value")
        t, v = tv["type"], tv["value"]
        if isinstance(t, str) and t not in PRIMITIVES + ("dynamic",):
            raise RequestError(f"scope variable {name!r} has an invalid type")
        if t not in PRIMITIVES or tv.get("unknown", []) != []:
            out[name] = "variables that are unknown or not of a primitive type"
            continue
        infinity = t == "number" and v in ("Infinity", "-Infinity")
        json_class = {"string": str, "bool": bool, "number": Num}[t]
        if not (v is None or infinity or isinstance(v, json_class)):
            raise RequestError(f"scope variable {name!r} is not a {t}")
        try:  # A variable we cannot represent only matters if the expression uses it.
            if infinity or t == "string" and v is not None and not v.isascii():
                raise Unsupported("infinities, and non-ASCII strings (cty normalises them to NFC)")
            out[name] = (t, number(v.text) if isinstance(v, Num) else v)
        except Unsupported as e:
            out[name] = str(e)
    return out


def evaluate(node, scope, src, depth=0):
    if depth > MAX_DEPTH:
        raise Unsupported(f"nesting deeper than {MAX_DEPTH}")
    if node[0] in ("lit", "num"):
        return node[1:] if node[0] == "lit" else ("number", number(node[1]))
    if node[0] == "var":
        name, start, end = node[1:]
        if name not in scope:
            raise diagnostic("eval", "Unknown variable", f'There is no variable named "{name}".',
                             src, start, end)
        if isinstance(scope[name], str):
            raise Unsupported(scope[name])
        return scope[name]
    if node[0] in ("neg", "not"):
        t, v = evaluate(node[1], scope, src, depth + 1)
        if v is None or t != ("number" if node[0] == "neg" else "bool"):
            raise Unsupported("operand conversions and null operands")  # HCL turns "1" into 1.
        return t, -v if node[0] == "neg" else not v
    # HCL evaluates both operands before checking either: an error on the right beats a bad left.
    op, (lt, lv) = node[1], evaluate(node[2], scope, src, depth + 1)
    rt, rv = evaluate(node[3], scope, src, depth + 1)
    want = "bool" if op in ("&&", "||") else lt if op in ("==", "!=") else "number"
    if lv is None or rv is None or not lt == rt == want or lt not in PRIMITIVES:
        raise Unsupported("operand conversions, null operands and comparing different types")
    if op == "/" and rv == 0:
        raise Unsupported("division by zero (infinities)")
    if op in ("==", "!=", "&&", "||"):
        return "bool", {"==": lv == rv, "!=": lv != rv, "&&": lv and rv, "||": lv or rv}[op]
    return "number", exact({"+": lv + rv, "-": lv - rv, "*": lv * rv}[op] if op != "/" else lv / rv)


def reject_constant(name):
    raise ValueError(f"{name} is not JSON")  # Python's json module would accept NaN.


def answer(line):
    rid = None
    try:
        try:
            req = json.loads(line, parse_int=Num, parse_float=Num, parse_constant=reject_constant)
        except (ValueError, RecursionError) as e:
            raise RequestError(f"invalid JSON: {e}")
        if not isinstance(req, dict):
            raise RequestError("a request must be a JSON object")
        rid = req.get("id") if isinstance(req.get("id"), str) else None
        kind, src = req.get("kind"), req.get("source")
        if rid is None or kind not in ("expression", "template") or not isinstance(src, str):
            raise RequestError('a request needs string "id" and "source", and a "kind"')
        scope = decode_scope(req.get("scope", {}))  # A malformed scope is an error even here.
        if kind == "template":
            raise Unsupported("templates")
        typ, value = evaluate(Parser(src).parse(), scope, src)
        return {"id": rid, "result": {"type": typ, "value": value}}
    except RequestError as e:
        return {"id": rid, "error": {"phase": "request", "summary": str(e)}}
    except HclError as e:
        return {"id": rid, "error": e.args[0]}
    except Unsupported as e:
        return {"id": rid, "unsupported": str(e)}
    except Exception as e:  # A bug in this engine: say so and keep serving.
        return {"id": rid, "crash": f"{type(e).__name__}: {e}"}


def dump(obj):  # json.dumps would need floats; numbers are written exactly instead.
    if isinstance(obj, dict):
        return "{" + ",".join(json.dumps(k) + ":" + dump(v) for k, v in obj.items()) + "}"
    return number_text(obj) if isinstance(obj, Fraction) else json.dumps(obj)


def main():
    for raw in sys.stdin.buffer:  # Bytes: only "\n" ends a line, and bad UTF-8 is ours to report.
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            line = "not UTF-8"  # Answered as invalid JSON.
        if line.strip():
            sys.stdout.write(dump(answer(line)) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
