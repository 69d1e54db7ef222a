"""The protocol side of the engine: reads requests, evaluates them in batches, answers in order.

Requests that arrive together are evaluated in one batch (up to `--batch`; see
`oracleio.serve`, shared with the other Python oracle). `--terraform-version` chooses the
Terraform (`versions.py`); a request whose `terraform_version` names another one is answered
`unsupported`.
"""
import argparse
import os
import shutil
import sys
import tempfile

from . import batch, cty, exactjson, kinds, versions
from .rewriter import Rewriter, RewriterError, locate
from .terraform import Terraform, TerraformFailure, WrongTerraform
from oracleio import RequestError, read_request, request_error, serve

DEFAULT_BATCH = 256
DEFAULT_TERRAFORM_TIMEOUT = 120
DIALECTS = ("hcl2",)
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))))


def parse_request(line):
    """The request of one input line; raises RequestError (with the id when it could be read)."""
    request = read_request(line, exactjson.loads)
    rid = request["id"]
    for name, typed in (request.get("scope") or {}).items():
        if not isinstance(typed, dict) or "type" not in typed or "value" not in typed:
            raise RequestError(f"scope variable `{name}` is not a typed value", rid)
        try:
            cty.check_type(typed["type"])
        except cty.BadValue as e:
            raise RequestError(f"scope variable `{name}`: {e}", rid)
    if not isinstance(request.get("terraform_version", ""), str):
        raise RequestError("`terraform_version` must be a string", rid)
    return request


class Engine:
    def __init__(self, terraform, rewriter, scratch, version):
        self.terraform = terraform
        self.rewriter = rewriter
        self.scratch = scratch
        self.version = version

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
                self._check_version(request)
                case = kinds.prepare(i, request, self.rewriter, self.version)
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

    def _check_version(self, request):
        wanted = request.get("terraform_version")
        if wanted is None or self.version.matches(wanted):
            return
        raise kinds.Unsupported(
            f"Terraform {wanted}: this engine runs Terraform {self.version} (start it with "
            f"--terraform-version {wanted} for that version)")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="terraform-oracle", description=__doc__)
    parser.add_argument("--batch", type=int, default=DEFAULT_BATCH,
                        help="the most requests evaluated in one Terraform run")
    parser.add_argument("--terraform-timeout", type=float, default=DEFAULT_TERRAFORM_TIMEOUT,
                        help="seconds one Terraform command may take")
    parser.add_argument("--terraform-version", default=versions.DEFAULT,
                        help="the Terraform to run: " + ", ".join(
                            v.minor for v in versions.VERSIONS)
                        + f" (or the full release, 1.6.6); default {versions.DEFAULT}")
    parser.add_argument("--scope-modules", action="store_true",
                        help="give scope values their types through modules, as before 1.15, "
                             "even with Terraform's convert function at hand")
    args = parser.parse_args(argv)
    try:
        version = versions.resolve(args.terraform_version)
    except versions.UnknownVersion as e:
        parser.error(str(e))
    if args.scope_modules:
        version = version.with_scope_modules()

    scratch = tempfile.mkdtemp(prefix="hclspec-terraform-")
    terraform = Terraform(scratch, args.terraform_timeout, version.python, version.full)
    rewriter = Rewriter(locate(REPO), version.minor)
    engine = Engine(terraform, rewriter, scratch, version)
    try:
        try:
            terraform.start()
        except (WrongTerraform, TerraformFailure) as e:
            print(f"terraform-oracle: {e}", file=sys.stderr)
            return 2
        serve(engine.answer_all, args.batch, exactjson.dumps)
    finally:
        terraform.close()
        rewriter.close()
        shutil.rmtree(scratch, ignore_errors=True)
    return 0
