"""A persistent engine that writes a note to stderr before answering a
request whose id ends in 1; every request is answered `unsupported`."""
import json
import sys

while True:
    line = sys.stdin.readline()
    if not line:
        break
    rid = json.loads(line)["id"]
    if rid.endswith("1"):
        sys.stderr.write(f"note for {rid}\n")
        sys.stderr.flush()
    print(json.dumps({"id": rid, "unsupported": "test engine"}), flush=True)
