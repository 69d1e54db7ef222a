"""A persistent engine that dies on every request whose id ends in 3 or 7,
after saying so on stderr; every other request is answered `unsupported`."""
import json
import sys

while True:
    line = sys.stdin.readline()
    if not line:
        break
    rid = json.loads(line)["id"]
    if rid[-1] in "37":
        sys.stderr.write(f"crashing on {rid}\n")
        sys.stderr.flush()
        sys.exit(3)
    print(json.dumps({"id": rid, "unsupported": "test engine"}), flush=True)
