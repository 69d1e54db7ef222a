"""The protocol side of the engine: reads requests, evaluates them in batches (see
`oracleio.serve`, shared with the other Python oracle), answers in order."""
import argparse
import json
import os
import shutil
import tempfile

from oracleio import RequestError, request_error, serve

from . import batch, requests
from .terraform import Terraform

DEFAULT_BATCH = 1024
# Outputs per configuration: a run costs ~15 ms plus ~1 ms per output, and every error round
# applies the outputs left again.
DEFAULT_CHUNK = 170
DEFAULT_JOBS = 2
DEFAULT_TERRAFORM_TIMEOUT = 120
OPTIONS = [
    ("--batch", int, DEFAULT_BATCH, "the most requests read before answering"),
    ("--chunk", int, DEFAULT_CHUNK, "the most outputs in one Terraform configuration"),
    ("--jobs", int, DEFAULT_JOBS, "configurations applied at the same time"),
    ("--terraform-timeout", float, DEFAULT_TERRAFORM_TIMEOUT, "seconds one Terraform run may take"),
]


def answer_all(lines, terraform, chunk, jobs):
    """One response per input line, in order."""
    responses = [None] * len(lines)
    cases, owners = [], []
    for i, line in enumerate(lines):
        try:
            case = requests.parse(line)
        except RequestError as e:
            responses[i] = request_error(*e.args)
            continue
        except requests.Answered as e:
            responses[i] = {"id": e.args[0], **e.args[1]}
            continue
        owners.append(i)
        cases.append(case)
    answers = batch.evaluate(cases, terraform, chunk, jobs) if cases else {}
    for k, i in enumerate(owners):
        responses[i] = {"id": cases[k].id,
                        **answers.get(k, {"crash": "the batch gave no answer for this case"})}
    return responses


def main(argv=None):
    parser = argparse.ArgumentParser(prog="terraform-0.11-oracle", description=__doc__)
    for flag, kind, default, what in OPTIONS:
        parser.add_argument(flag, type=kind, default=default, help=what)
    args = parser.parse_args(argv)

    scratch = os.path.realpath(tempfile.mkdtemp(prefix="hclspec-terraform-0.11-"))
    terraform = Terraform(scratch, args.terraform_timeout)
    chunk, jobs = max(1, args.chunk), max(1, args.jobs)
    try:
        serve(lambda lines: answer_all(lines, terraform, chunk, jobs), args.batch,
              lambda response: json.dumps(response, ensure_ascii=False, separators=(",", ":")))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0
