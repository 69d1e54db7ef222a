"""The protocol plumbing that hclspec's Python oracle engines share (docs/protocol.md):
reading a request line's common fields, and the loop that answers requests in batches.

Requests that arrive together (a client keeps many in flight) are answered together: after
the first request of a batch, the loop takes whatever else arrives within `GATHER_SECONDS`,
up to the batch size, then answers them all, in order. A client that sends one request at a
time gets one answer at a time.
"""
import queue
import sys
import threading

GATHER_SECONDS = 0.02
# `level` is accepted and ignored: the oracles always give their full answer.
# `terraform_version` is for the engines that can run several Terraform versions.
REQUEST_FIELDS = {"id", "kind", "source", "scope", "hcl_version", "dialect", "type", "spec",
                  "base_dir", "level", "terraform_version"}
HCL_VERSIONS = ("2.14", "2.24")


class RequestError(Exception):
    """A malformed request: (message, the request's id or None)."""


def read_request(line, loads):
    """The request object of one input line, its common fields checked; raises RequestError."""
    try:
        request = loads(line)
    except ValueError as e:
        raise RequestError(f"invalid JSON: {e}", None)
    if not isinstance(request, dict):
        raise RequestError("a request must be a JSON object", None)
    rid = request.get("id") if isinstance(request.get("id"), str) else None
    if rid is None:
        raise RequestError("missing or non-string field `id`", None)
    unknown = sorted(set(request) - REQUEST_FIELDS)
    if unknown:
        raise RequestError(f"unknown field `{unknown[0]}`", rid)
    for field in ("kind", "source"):
        if not isinstance(request.get(field), str):
            raise RequestError(f"missing or non-string field `{field}`", rid)
    if request.get("hcl_version", HCL_VERSIONS[-1]) not in HCL_VERSIONS:
        raise RequestError("`hcl_version` must be \"2.14\" or \"2.24\"", rid)
    if not isinstance(request.get("scope", {}), dict):
        raise RequestError("`scope` must be an object", rid)
    if "base_dir" in request and not isinstance(request["base_dir"], str):
        raise RequestError("`base_dir` must be a string", rid)
    return request


def request_error(message, rid):
    return {"id": rid, "error": {"phase": "request", "summary": message}}


def serve(answer_all, batch, dumps):
    """Answers stdin's request lines on stdout until end of input: `answer_all(lines)` gives
    one response object per line; `dumps` writes one as JSON text."""
    lines = queue.Queue()
    threading.Thread(target=_reader, args=(sys.stdin.buffer, lines), daemon=True).start()
    out = sys.stdout
    done = False
    while not done:
        first = lines.get()
        if first is None:
            break
        group = [first]
        while len(group) < batch:
            try:
                line = lines.get(timeout=GATHER_SECONDS)
            except queue.Empty:
                break
            if line is None:
                done = True
                break
            group.append(line)
        for response in answer_all(group):
            out.write(dumps(response) + "\n")
        out.flush()


def _reader(stream, lines):
    for raw in stream:
        text = raw.decode("utf-8", "replace").rstrip("\n").rstrip("\r")
        if text.strip():
            lines.put(text)
    lines.put(None)
