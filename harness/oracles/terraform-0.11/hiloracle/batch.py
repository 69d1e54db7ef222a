"""Evaluating many cases in few Terraform runs.

Cases with the same variables and base directory go into one configuration, one output per
case, applied at once. A run with errors writes no state, so:

1. A load error (a string that does not parse) names its output and stops the load: that
   output is answered, dropped, and the rest applied again.
2. Validation and evaluation errors are printed for every output that has them: those
   outputs are answered (each with the first error printed about it), dropped, and the rest
   applied again.
3. A run that succeeds answers every output left from the state.

Configurations are applied a few at a time (`--jobs`). A run that fails without naming an
output (Terraform crashed or hung) is retried on each half of its cases, down to the single
case that causes it, which is answered `crash`.
"""
from concurrent.futures import ThreadPoolExecutor

from . import errors, values
from .terraform import TerraformFailure

# Every round answers at least one case or stops; this bounds a misbehaving Terraform.
MAX_ROUNDS = 10000


def evaluate(cases, terraform, chunk, jobs):
    """{case index: answer without the id} for a list of requests.Case: configurations of at
    most `chunk` cases, `jobs` of them applied at a time."""
    groups = {}
    for i, case in enumerate(cases):
        groups.setdefault(case.group, []).append(i)
    parts = [{i: cases[i] for i in members[start:start + chunk]}
             for members in groups.values() for start in range(0, len(members), chunk)]
    answers = {}
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for done in pool.map(lambda part: _bisecting(part, terraform), parts):
            answers.update(done)
    return answers


def _bisecting(cases, terraform):
    try:
        return _rounds(cases, terraform)
    except TerraformFailure as failure:
        if len(cases) == 1:
            return {i: {"crash": str(failure)} for i in cases}
        keys = list(cases)
        half = len(keys) // 2
        answers = _bisecting({i: cases[i] for i in keys[:half]}, terraform)
        answers.update(_bisecting({i: cases[i] for i in keys[half:]}, terraform))
        return answers


def _rounds(cases, terraform):
    answers = {}
    pending = dict(cases)
    first = next(iter(cases.values()))
    for _ in range(MAX_ROUNDS):
        if not pending:
            return answers
        names = {f"c{i}": i for i in pending}
        rc, stderr, outputs = terraform.apply(
            first.variables, {name: pending[i].text for name, i in names.items()},
            first.base_dir)
        if outputs is not None:
            for name, i in names.items():
                answers[i] = _checked(values.answer(outputs.get(name)), terraform, pending[i])
            return answers
        found = errors.by_output(stderr, names)
        if not found:
            scope = errors.variable_errors(stderr)
            if scope:
                for i in pending:
                    answers[i] = {"unsupported": f"Terraform 0.11 refuses the scope: {scope[0]}"}
                return answers
            raise TerraformFailure(f"Terraform failed (exit status {rc}) without naming an "
                                   f"output:\n{_head(stderr)}")
        for name, (stage, message) in found.items():
            i = names[name]
            case = pending.pop(i)
            answers[i] = _checked(errors.answer(stage, message, case), terraform, case)
    raise TerraformFailure(f"Terraform still reported errors after {MAX_ROUNDS} rounds")


def _checked(answer, terraform, case):
    """The answer, unless it shows the oracle's scratch directory (`file()` errors name the
    absolute path they tried: such an answer says where the oracle runs, not what the
    language does), or is an error message that Terraform may have printed with parts left
    out."""
    if terraform.scratch in repr(answer):
        return {"unsupported": "the answer names the oracle's scratch directory"}
    if "error" in answer and errors.may_have_lost_tags(case):
        return {"unsupported": "Terraform prints error messages without the colorstring tags "
                               "([red], [bold], ...) they hold, and this one may hold some"}
    return answer


def _head(text, lines=20):
    return "\n".join(text.strip().splitlines()[:lines])
