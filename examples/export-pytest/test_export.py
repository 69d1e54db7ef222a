"""Judges an engine on `hclspec export` at the `value` level of docs/protocol.md.

    HCLSPEC_EXPORT=corpus.jsonl HCLSPEC_ENGINE="hclspec serve" pytest test_export.py

An expected error needs an error of the same phase. An expected value needs a
value equal to it with lists and tuples alike, maps and objects alike and sets
in any order; numbers are exact decimals, and -0 is not 0. Unknowns must be
at the same paths; sensitive marks are not judged.
"""
import json, os, shlex, subprocess
from decimal import Decimal
import pytest

def load(text):  # every number an exact decimal, -0 included
    return json.loads(text, parse_float=Decimal, parse_int=Decimal)

def dump(doc):  # JSON text again, each decimal with its own digits
    if isinstance(doc, dict):
        return "{%s}" % ",".join(json.dumps(k) + ":" + dump(v) for k, v in doc.items())
    if isinstance(doc, list):
        return "[%s]" % ",".join(map(dump, doc))
    return str(doc) if isinstance(doc, Decimal) else json.dumps(doc)

with open(os.environ["HCLSPEC_EXPORT"], encoding="utf-8") as f:
    HEAD, *CASES = [load(line) for line in f if line.strip()]
assert HEAD["export_version"] == 2 and HEAD["manifest"]["counts"]["cases"] == len(CASES)

@pytest.fixture(scope="module")
def answers():
    requests = "".join(dump(c["request"]) + "\n" for c in CASES)
    engine = shlex.split(os.environ.get("HCLSPEC_ENGINE", "hclspec serve"))
    out = subprocess.run(engine, input=requests.encode(), capture_output=True).stdout
    return [load(line) for line in out.decode().split("\n") if line.strip()]

def plain(ty, v):  # the value without its types; a set becomes ("set", [...])
    if v is None or ty in ("string", "number", "bool"):
        return v
    if ty == "dynamic":
        return plain(v["type"], v["value"])
    kind, inner = ty
    if kind in ("list", "set", "tuple"):
        items = [plain(inner[i] if kind == "tuple" else inner, x) for i, x in enumerate(v)]
        return ("set", items) if kind == "set" else items
    return {k: plain(inner[k] if kind == "object" else inner, x) for k, x in v.items()}

def same(a, b):
    if isinstance(a, tuple) or isinstance(b, tuple):  # a set: the same elements, any order
        rest = list(b[1] if isinstance(b, tuple) else b)
        for x in a[1] if isinstance(a, tuple) else a:
            i = next((i for i, y in enumerate(rest) if same(x, y)), None)
            if i is None:
                return False
            del rest[i]
        return not rest
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(map(same, a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b and (not isinstance(a, Decimal) or a.is_signed() == b.is_signed())

@pytest.mark.parametrize("i", range(len(CASES)), ids=[c["request"]["id"] for c in CASES])
def test_case(i, answers):
    want, got = CASES[i]["expect"], answers[i] if i < len(answers) else {}
    assert got.get("id") == CASES[i]["request"]["id"], dump(got)
    if "error" in want:
        assert got.get("error", {}).get("phase") == want["error"]["phase"], dump(got)
    else:
        e, a = want["result"], got.get("result")
        assert a is not None, dump(got)
        assert same(plain(e["type"], e["value"]), plain(a["type"], a["value"])), dump(a)
        unknown = lambda tv: sorted(map(dump, tv.get("unknown", [])))
        assert unknown(e) == unknown(a), dump(a)
