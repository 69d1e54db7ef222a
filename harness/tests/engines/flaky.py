"""An oracle whose answer to `1 +` changes from one request to the next
(as a Go oracle's can, where Go's map order decides it), while its answer to
`1 + 1` stays; its answers to `nope` and `nope_too` keep their summary and
change their detail, and its answer to `stay` does not change at all."""
import json
import sys

seen = 0
asked = {}
for line in sys.stdin:
    req = json.loads(line)
    source = req["source"]
    asked[source] = asked.get(source, 0) + 1
    if source == "1 + 1":
        answer = {"result": {"type": "number", "value": 2}}
    elif source in ("nope", "nope_too", "stay"):
        name = "a" if source == "stay" or asked[source] % 2 else "b"
        answer = {"error": {"phase": "eval", "summary": "Unknown variable", "detail": f"Did you mean {name}?"}}
    else:
        seen += 1
        answer = {"error": {"phase": "parse", "summary": "Missing expression" if seen % 2 else "Invalid expression", "detail": ""}}
    answer["id"] = req["id"]
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
