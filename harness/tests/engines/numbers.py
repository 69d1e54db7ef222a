"""A persistent engine that knows three number answers by source: with
`exact` it writes each number's digits as they are; with `rounded` it writes
them as a 64-bit float would (and -0 as 0, as JavaScript's JSON does)."""
import json
import sys

ANSWERS = {
    "x": "900719925474099.3",
    "-0": "-0",
    "18446744073709551616 + 1": "18446744073709551617",
}

mode = sys.argv[1]
for line in sys.stdin:
    req = json.loads(line)
    text = ANSWERS[req["source"]]
    if mode == "rounded":
        f = float(text)
        text = "0" if f == 0 else repr(f)
    sys.stdout.write('{"id": %s, "result": {"type": "number", "value": %s}}\n' % (json.dumps(req["id"]), text))
    sys.stdout.flush()
