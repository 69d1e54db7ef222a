"""A persistent engine that never answers a request whose id ends in 5;
every other request is answered `unsupported`."""
import json
import sys
import time

while True:
    line = sys.stdin.readline()
    if not line:
        break
    rid = json.loads(line)["id"]
    if rid.endswith("5"):
        while True:
            time.sleep(60)
    print(json.dumps({"id": rid, "unsupported": "test engine"}), flush=True)
