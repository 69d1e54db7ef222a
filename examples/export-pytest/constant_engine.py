#!/usr/bin/env python3
"""A protocol engine that is wrong on purpose: it answers every request with
the string "constant". The export's test must fail on it."""
import json, sys

for line in sys.stdin:
    if line.strip():
        request_id = json.loads(line).get("id")
        print(json.dumps({"id": request_id, "result": {"type": "string", "value": "constant"}}), flush=True)
