"""The protocol side of the engine: reads requests, evaluates them in batches, answers in order.

Requests that arrive together (a client keeps up to 64 in flight) are evaluated in one batch:
after the first request of a batch, the engine takes whatever else arrives within
`GATHER_SECONDS`, up to `--batch` requests, then answers them all. A client that sends one
request at a time gets one answer at a time.
"""
import argparse
import os
import queue
import shutil
import sys
import tempfile
import threading

from . import batch, cty, exactjson, kinds
from .rewriter import Rewriter, RewriterError, locate
from .terraform import Terraform

GATHER_SECONDS = 0.02
DEFAULT_BATCH = 256
DEFAULT_TERRAFORM_TIMEOUT = 120
# `level` is accepted and ignored: the answer is always Terraform's full answer.
REQUEST_FIELDS = {"id", "kind", "source", "scope", "hcl_version", "dialect", "type", "spec",
                  "base_dir", "level"}
HCL_VERSIONS = ("2.14", "2.24")
DIALECTS = ("hcl2",)
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))))


class RequestError(Exception):
    """A malformed request."""


def parse_request(line):
    """The request of one input line; raises RequestError (with the id when it could be read)."""
    try:
        request = exactjson.loads(line)
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
    if request.get("hcl_version", "2.24") not in HCL_VERSIONS:
        raise RequestError("`hcl_version` must be \"2.14\" or \"2.24\"", rid)
    if not isinstance(request.get("scope", {}), dict):
        raise RequestError("`scope` must be an object", rid)
    if "base_dir" in request and not isinstance(request["base_dir"], str):
        raise RequestError("`base_dir` must be a string", rid)
    for name, typed in (request.get("scope") or {}).items():
        if not isinstance(typed, dict) or "type" not in typed or "value" not in typed:
            raise RequestError(f"scope variable `{name}` is not a typed value", rid)
        try:
            cty.check_type(typed["type"])
        except cty.BadValue as e:
            raise RequestError(f"scope variable `{name}`: {e}", rid)
    return request


def request_error(message, rid):
    return {"id": rid, "error": {"phase": "request", "summary": message}}


class Engine:
    def __init__(self, terraform, rewriter, scratch):
        self.terraform = terraform
        self.rewriter = rewriter
        self.scratch = scratch

    def answer_all(self, lines):
        """One response per input line, in order."""
        responses = [None] * len(lines)
        prepared, owners = [], {}
        for i, line in enumerate(lines):
            try:
                request = parse_request(line)
            except RequestError as e:
                responses[i] = request_error(*e.args)
                continue
            rid = request["id"]
            try:
                if request.get("dialect", "hcl2") not in DIALECTS:
                    raise kinds.Unsupported(f"the {request['dialect']} dialect")
                case = kinds.prepare(i, request, self.rewriter)
            except kinds.Unsupported as e:
                responses[i] = {"id": rid, "unsupported": str(e)}
                continue
            except cty.Inexpressible as e:
                responses[i] = {"id": rid, "unsupported": f"Terraform cannot express: {e}"}
                continue
            except cty.BadValue as e:
                responses[i] = request_error(str(e), rid)
                continue
            except RewriterError as e:
                responses[i] = {"id": rid, "crash": str(e)}
                continue
            prepared.append(case)
            owners[case.name] = (i, rid)
        if prepared:
            answers = batch.evaluate(prepared, self.terraform, self.scratch)
            for name, (i, rid) in owners.items():
                answer = answers.get(name) or {"crash": "the batch gave no answer for this case"}
                responses[i] = {"id": rid, **answer}
        return responses


def _reader(stream, lines):
    for raw in stream:
        text = raw.decode("utf-8", "replace").rstrip("\n").rstrip("\r")
        if text.strip():
            lines.put(text)
    lines.put(None)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="terraform-oracle", description=__doc__)
    parser.add_argument("--batch", type=int, default=DEFAULT_BATCH,
                        help="the most requests evaluated in one Terraform run")
    parser.add_argument("--terraform-timeout", type=float, default=DEFAULT_TERRAFORM_TIMEOUT,
                        help="seconds one Terraform command may take")
    args = parser.parse_args(argv)

    scratch = tempfile.mkdtemp(prefix="hclspec-terraform-")
    terraform = Terraform(scratch, args.terraform_timeout)
    rewriter = Rewriter(locate(REPO))
    engine = Engine(terraform, rewriter, scratch)
    lines = queue.Queue()
    threading.Thread(target=_reader, args=(sys.stdin.buffer, lines), daemon=True).start()
    out = sys.stdout
    try:
        done = False
        while not done:
            first = lines.get()
            if first is None:
                break
            group = [first]
            while len(group) < args.batch:
                try:
                    line = lines.get(timeout=GATHER_SECONDS)
                except queue.Empty:
                    break
                if line is None:
                    done = True
                    break
                group.append(line)
            for response in engine.answer_all(group):
                out.write(exactjson.dumps(response) + "\n")
            out.flush()
    finally:
        terraform.close()
        rewriter.close()
        shutil.rmtree(scratch, ignore_errors=True)
    return 0
