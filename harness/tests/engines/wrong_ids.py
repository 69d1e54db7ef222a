"""A persistent engine that answers a request whose id ends in 6 with
another id, and a request whose id ends in 8 only after the request that
follows it (out of order); every other request is answered `unsupported`."""
import json
import sys


def answer(rid):
    print(json.dumps({"id": rid, "unsupported": "test engine"}), flush=True)


while True:
    line = sys.stdin.readline()
    if not line:
        break
    rid = json.loads(line)["id"]
    if rid.endswith("6"):
        print(json.dumps({"id": "not-" + rid, "unsupported": "test engine"}), flush=True)
    elif rid.endswith("8"):
        following = sys.stdin.readline()
        if following:
            answer(json.loads(following)["id"])
        answer(rid)
    else:
        answer(rid)
