"""Evaluating many prepared cases in a few Terraform runs.

All cases of a batch go into one scratch module, one file per case, and one
`terraform plan -out` evaluates them together; the saved plan then holds every output's exact
value (`planfile.py`). A plan with errors saves nothing, so:

1. `plan`. If it fails, each error diagnostic names the file of the case it belongs to. Whether
   they are load (parse) errors or evaluation errors is what `terraform providers`, which only
   loads the configuration, tells: it fails exactly when loading does. The cases with errors
   are answered, their files removed, and the plan is run again for the rest.
2. Cases whose planned result is unknown although nothing in their scope is (an impure
   function such as `timestamp()` or `uuid()` only has a value once applied) are run once
   more with `terraform apply`, and their values read from the state file. The sensitive
   marks still come from the plan: the state only records whether a whole output is
   sensitive.

A Terraform run that dies or hangs (`TerraformFailure`) is retried on each half of the
batch, down to the single case that causes it, which is answered `crash`; the rest of the
batch is answered as usual.
"""
import os
import re
import shutil
import tempfile

from . import exactjson, kinds, planfile
from .terraform import TerraformFailure

PLAN_FILE = "hclspec.tfplan"
STATE_FILE = "terraform.tfstate"
# Every round answers at least one case or stops, so this only bounds a misbehaving Terraform.
MAX_ROUNDS = 8
SCOPE_SUMMARY = "Terraform could not build the case's scope value"
AMBIGUOUS_NUMBER = ("this Terraform's plan does not tell the digits of a number inside a "
                    "structure (a whole number beyond int64, a power of two below 1, or a subnormal float64)")
# How a plan that cannot be saved because of an infinite number names the output.
INFINITE_OUTPUT = re.compile(r'output value "(c[0-9]+)": cannot serialize infinity')
# cty's text of the infinities (`big.Float.Text`), as an infinity probe gives them.
INFINITY_TEXTS = {"+Inf": "Infinity", "-Inf": "-Infinity"}


class Answers(dict):
    """Case name -> protocol answer (without the id)."""


def evaluate(prepared, terraform, scratch):
    """Answers for the prepared cases, grouped by their base directory."""
    answers = Answers()
    groups = {}
    for case in prepared:
        groups.setdefault(case.base_dir, []).append(case)
    for base_dir, cases in groups.items():
        answers.update(_bisecting(cases, lambda c: _plan_and_apply(c, terraform, scratch,
                                                                    base_dir)))
    return answers


def _bisecting(cases, run):
    """`run(cases)`, retried on halves when Terraform fails; a failing single case is a
    crash."""
    try:
        return run(cases)
    except TerraformFailure as failure:
        if len(cases) == 1:
            return {cases[0].name: {"crash": str(failure)}}
        middle = len(cases) // 2
        answers = _bisecting(cases[:middle], run)
        answers.update(_bisecting(cases[middle:], run))
        return answers


def _plan_and_apply(cases, terraform, scratch, base_dir):
    answers, planned = _rounds(cases, terraform, scratch, base_dir, apply=False)
    impure = [c for c in cases
              if c.name in planned and planned[c.name].get("unknown") and not c.unknown_inputs]
    ambiguous = [c for c in cases if c.name in planned and planned[c.name].get("ambiguous")
                 and c not in impure]
    for case in cases:
        if case.name in planned and case not in impure and case not in ambiguous:
            answers[case.name] = (_probed(planned[case.name]) if case.probe == "infinity"
                                  else {"result": planned[case.name]})
    if ambiguous:
        answers.update(_number_texts(ambiguous, planned, terraform, scratch, base_dir))
    if impure:
        applied_answers, applied = _rounds(impure, terraform, scratch, base_dir, apply=True)
        answers.update(applied_answers)
        for case in impure:
            if case.name in applied:
                result = applied[case.name]
                marks = planned[case.name].get("sensitive")
                if marks:
                    result["sensitive"] = marks
                answers[case.name] = {"result": result}
    return answers


def _rounds(cases, terraform, scratch, base_dir, apply):
    """(error answers, {name: typed result}) of planning (or applying) `cases`."""
    answers = {}
    pending = list(cases)
    for _ in range(MAX_ROUNDS):
        if not pending:
            return answers, {}
        module = _write_module(pending, scratch, base_dir)
        try:
            rc, stdout, _ = terraform.run(_command(module, apply))
            if rc == 0:
                return answers, _results(module, pending, apply)
            errors = _errors_by_file(stdout)
            if _probe_infinities(pending, errors):
                continue
            load_failed = terraform.run([f"-chdir={module}", "providers"])[0] != 0
        finally:
            shutil.rmtree(module, ignore_errors=True)
        still = []
        for case in pending:
            answer = _case_error(case, errors, load_failed)
            if answer is None:
                still.append(case)
            else:
                answers[case.name] = answer
        if len(still) == len(pending):
            _unattributed(errors, pending, answers)
            return answers, {}
        pending = still
    raise TerraformFailure(f"Terraform still reported errors after {MAX_ROUNDS} rounds")


def _number_texts(cases, planned, terraform, scratch, base_dir):
    """Answers for the cases whose planned number results the plan did not determine
    (`cty.AMBIGUOUS_WHOLE`, `cty._go_text_unsure`), from a run of each as a number-text probe
    (a whole number) or a float-text probe; one inside a structure, or in a case that writes
    its own file, is not probed."""
    answers = {}
    probes = []
    for case in cases:
        if planned[case.name]["ambiguous"] == [[]] and case.own_file is None:
            value = planned[case.name]["value"]
            case.probe = ("number text" if value == value.to_integral_value()
                          else "float text")
            probes.append(case)
        else:
            answers[case.name] = {"unsupported": AMBIGUOUS_NUMBER}
    probe_answers, texts = _rounds(probes, terraform, scratch, base_dir, apply=False)
    answers.update(probe_answers)
    for case in probes:
        if case.name in texts:
            result = {"type": "number", "value": exactjson.loads(texts[case.name]["value"])}
            if planned[case.name].get("sensitive"):
                result["sensitive"] = planned[case.name]["sensitive"]
            answers[case.name] = {"result": result}
    return answers


def _probe_infinities(pending, errors):
    """Marks the cases whose result is an infinite number as infinity probes; whether there
    were any."""
    names = {m for d in errors.get(None, []) for m in INFINITE_OUTPUT.findall(d.get("detail", ""))}
    found = False
    for case in pending:
        if case.name in names and not case.probe:
            case.probe = "infinity"
            found = True
    return found


def _probed(typed):
    """The answer of an infinity probe, whose text has the number's marks."""
    infinity = INFINITY_TEXTS.get(typed["value"])
    if infinity is not None:
        result = {"type": "number", "value": infinity}
        if typed.get("sensitive"):
            result["sensitive"] = typed["sensitive"]
        return {"result": result}
    return {"unsupported": "Terraform cannot save an infinite number inside a structure"}


def _command(module, apply):
    if apply:
        return [f"-chdir={module}", "apply", "-auto-approve", "-input=false", "-json",
                "-no-color", "-lock=false"]
    return [f"-chdir={module}", "plan", f"-out={PLAN_FILE}", "-input=false", "-json",
            "-no-color", "-lock=false"]


def _write_module(cases, scratch, base_dir):
    module = tempfile.mkdtemp(prefix="module-", dir=scratch)
    if base_dir is not None:
        # File functions resolve relative paths against the working directory, which is the
        # module's: make the base directory's entries appear there.
        for entry in os.listdir(base_dir):
            if not entry.endswith((".tf", ".tf.json")):
                os.symlink(os.path.join(os.path.abspath(base_dir), entry),
                           os.path.join(module, entry))
    _write(os.path.join(module, kinds.SHARED_FILE[0]), kinds.SHARED_FILE[1])
    if any(c.unknown_inputs for c in cases):
        _write(os.path.join(module, "hclspec_unknown.tf"), kinds.UNKNOWN_RESOURCE)
    for case in cases:
        for name, text in case.files().items():
            _write(os.path.join(module, name), text)
    calls = [call for c in cases for call in c.module_calls()]
    if calls:
        # What `terraform init` records for local modules, so that none has to run.
        listing = [{"Key": "", "Source": "", "Dir": "."}] + [
            {"Key": key, "Source": f"./{m}", "Dir": m} for key, m in calls]
        _write(os.path.join(module, ".terraform", "modules", "modules.json"),
               exactjson.dumps({"Modules": listing}))
    return module


def _write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def _results(module, cases, apply):
    if apply:
        with open(os.path.join(module, STATE_FILE), encoding="utf-8") as f:
            state = exactjson.loads(f.read())
        outputs = {name: {"type": out["type"], "value": out["value"]}
                   for name, out in state.get("outputs", {}).items()}
    else:
        outputs = planfile.read_outputs(os.path.join(module, PLAN_FILE))
    results = {}
    for case in cases:
        wrapped = outputs.get(case.name)
        if wrapped is None:
            raise TerraformFailure(f"the plan has no output {case.name}")
        results[case.name] = _unwrap(wrapped)
    return results


def _unwrap(wrapped):
    """The typed value inside an output's one-element tuple."""
    ty = wrapped["type"]
    if not (isinstance(ty, list) and ty[0] == "tuple" and len(ty[1]) == 1):
        raise TerraformFailure(f"an output is not a one-element tuple: {exactjson.dumps(ty)}")
    if wrapped.get("value") is None:
        raise TerraformFailure("an output's tuple is null or unknown")
    typed = {"type": ty[1][0], "value": wrapped["value"][0]}
    for key in ("unknown", "sensitive", "ambiguous"):
        paths = [p[1:] for p in wrapped.get(key, []) if p[:1] == [0]]
        if paths:
            typed[key] = paths
    refinements = [{**r, "path": r["path"][1:]} for r in wrapped.get("refinements", [])
                   if r["path"][:1] == [0]]
    if refinements:
        typed["refinements"] = refinements
    return typed


def _errors_by_file(stdout):
    """{file name or None: [diagnostic, ...]} of the error diagnostics in a JSON log."""
    errors = {}
    for line in stdout.splitlines():
        if not line.startswith("{"):
            continue
        try:
            message = exactjson.loads(line)
        except ValueError:
            continue
        diag = message.get("diagnostic")
        if message.get("type") != "diagnostic" or not diag or diag.get("severity") != "error":
            continue
        filename = (diag.get("range") or {}).get("filename")
        errors.setdefault(filename, []).append(diag)
    return errors


def _case_error(case, errors, load_failed):
    """The answer for a case that has error diagnostics, else None."""
    scope_diags = [d for name in case.scope_files() for d in errors.get(name, [])]
    if scope_diags:
        diag = scope_diags[0]
        return {"unsupported": f"{SCOPE_SUMMARY}: {diag.get('summary')}: {diag.get('detail')}"}
    diags = [d for name in case.error_files() for d in errors.get(name, [])]
    if not diags:
        return None
    diag = diags[0]
    error = {"phase": case.phase(diag, load_failed), "summary": case.summary(diag)}
    detail = case.detail(diag)
    if detail:
        error["detail"] = detail
    rng = case.source_range(diag.get("range"))
    if rng:
        error["range"] = rng
    return {"error": error}


def _unattributed(errors, pending, answers):
    """Errors that name no case's file: a single case gets them as its answer; a larger batch
    is retried in halves to find the case responsible."""
    diags = [d for ds in errors.values() for d in ds]
    if len(pending) > 1 or not diags:
        what = diags[0].get("summary") if diags else "no error diagnostic"
        raise TerraformFailure(f"Terraform failed without naming a case: {what}")
    diag = diags[0]
    answers[pending[0].name] = {"error": {"phase": "eval", "summary": diag.get("summary", ""),
                                          "detail": diag.get("detail", "")}}
