"""An oracle whose answer to `1 +` changes from one request to the next
(as a Go oracle's can, where Go's map order decides it), while its answer to
`1 + 1` stays."""
import json
import sys

seen = 0
for line in sys.stdin:
    req = json.loads(line)
    if req["source"] == "1 + 1":
        answer = {"result": {"type": "number", "value": 2}}
    else:
        seen += 1
        answer = {"error": {"phase": "parse", "summary": "Missing expression" if seen % 2 else "Invalid expression", "detail": ""}}
    answer["id"] = req["id"]
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
