"""A one-shot engine: one request on stdin, one answer on stdout. It exits
without answering a request whose id ends in 3, answers twice one whose id
ends in 4, and hangs on one whose id ends in 5; every other request is
answered `unsupported`."""
import json
import sys
import time

rid = json.loads(sys.stdin.readline())["id"]
if rid.endswith("3"):
    sys.stderr.write(f"no answer for {rid}\n")
    sys.exit(1)
if rid.endswith("5"):
    time.sleep(60)
answer = json.dumps({"id": rid, "unsupported": "test engine"})
print(answer)
if rid.endswith("4"):
    print(answer)
