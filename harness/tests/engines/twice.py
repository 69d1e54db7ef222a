"""A persistent engine that answers a request whose id ends in 3 twice;
every request is answered `unsupported`."""
import json
import sys

while True:
    line = sys.stdin.readline()
    if not line:
        break
    rid = json.loads(line)["id"]
    answer = json.dumps({"id": rid, "unsupported": "test engine"})
    print(answer, flush=True)
    if rid.endswith("3"):
        print(answer, flush=True)
