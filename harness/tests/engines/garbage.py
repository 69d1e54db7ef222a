"""A persistent engine that answers a request whose id ends in 2 with a line
that is not JSON, and one whose id ends in 4 with JSON that is not a
response; every other request is answered `unsupported`."""
import json
import sys

while True:
    line = sys.stdin.readline()
    if not line:
        break
    rid = json.loads(line)["id"]
    if rid.endswith("2"):
        print(f"evaluating {rid}...", flush=True)
    elif rid.endswith("4"):
        print(json.dumps({"id": rid, "value": 1}), flush=True)
    else:
        print(json.dumps({"id": rid, "unsupported": "test engine"}), flush=True)
