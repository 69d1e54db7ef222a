import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python-common"))

from adapter_testing import EngineTestCase, ParseLevelTests, venv_command  # noqa: E402

NUMBERS = {"type": ["list", "number"], "value": [3, 1, 2]}


class CheckovTest(ParseLevelTests, EngineTestCase):
    COMMAND = venv_command(__file__)

    def value(self, source, **fields):
        return self.ask(source, level="value", **fields)

    def test_what_checkov_evaluates_is_a_value(self):
        self.assertValue("1 + 2", {"type": "number", "value": 3})
        self.assertValue('upper("a")', {"type": "string", "value": "A"})
        self.assertValue('{a = [1, "x"]}', {"type": ["object", {"a": ["tuple", ["number", "string"]]}], "value": {"a": [1, "x"]}})

    def test_its_wrong_values_are_answered_as_they_are(self):
        # Each is Checkov's answer, judged as a value (Terraform: true, ["a", "b"], "cab").
        self.assertValue("1 == 1", {"type": "dynamic", "value": None})
        self.assertValue("keys({b = 1, a = 2})", {"type": ["tuple", ["string", "string"]], "value": ["b", "a"]})
        self.assertValue('trimprefix("abcab", "ab")', {"type": "string", "value": "cab"})

    def test_source_text_that_checkov_takes_for_a_value_is_a_value(self):
        # A for expression comes back as the text of its result expression,
        # once per element, and a call of a function Checkov lacks as the
        # call's text: its checks compare these texts, so they are answers.
        response = self.value("[for i in x : i * 2]", scope={"x": NUMBERS})
        self.assertEqual(response["result"]["value"], ["i * 2", "i * 2", "i * 2"])
        self.assertValue("nosuch(1)", {"type": "string", "value": "nosuch(1)"})

    def test_source_text_checkov_calls_variable_dependent_is_unsupported(self):
        # Its value checks answer UNKNOWN for these: the attribute is unresolved.
        for source in ("missing", 'lookup({}, "k")', 'file("x")', '"x-${missing}"'):
            response = self.value(source)
            self.assertIn("unsupported", response, source)
            self.assertIn("unresolved", response["unsupported"])

    def test_scope_variables_are_variables_with_defaults(self):
        scope = {"x": NUMBERS, "o": {"type": ["object", {"a": "string"}], "value": {"a": "hi"}}}
        self.assertEqual(self.value("o.a", scope=scope), {"result": {"type": "string", "value": "hi"}})
        self.assertEqual(self.value("x[1]", scope=scope), {"result": {"type": "number", "value": 1}})

    def test_the_attributes_of_a_scope_var_are_terraform_variables(self):
        scope = {"var": {"type": ["object", {"list": ["list", "number"], "name": "string"}], "value": {"list": [3, 1, 2], "name": "n"}}}
        self.assertEqual(self.value('var.list[1]', scope=scope), {"result": {"type": "number", "value": 1}})
        self.assertEqual(self.value('var.name', scope=scope), {"result": {"type": "string", "value": "n"}})
        # Checkov substitutes a string variable into a call without quotes.
        self.assertEqual(self.value('upper(var.name)', scope=scope), {"result": {"type": "string", "value": "upper(n)"}})

    def test_a_scope_string_is_written_with_escapes(self):
        # The default is "a\"b": Checkov's parser keeps the escape, its
        # evaluator reads the text as Python.
        scope = {"s": {"type": "string", "value": 'a"b'}}
        response = self.value("s", scope=scope)
        self.assertEqual(response["result"]["type"], "string")

    def test_unknown_scope_values_are_unsupported(self):
        scope = {"u": {"type": "string", "value": None, "unknown": [[]]}}
        self.assertUnsupported("u", level="value", scope=scope)

    def test_a_template_is_a_heredoc_body(self):
        scope = {"x": {"type": "string", "value": "X"}}
        response = self.ask("a ${x} b", kind="template", level="value", scope=scope)
        self.assertEqual(response, {"result": {"type": "string", "value": "a X b"}})
        # Checkov's evaluator deletes every line break of a string it evaluates.
        response = self.ask("a ${x}\nb", kind="template", level="value", scope=scope)
        self.assertEqual(response, {"result": {"type": "string", "value": "a Xb"}})

    def test_numbers_are_checkov_s_floats(self):
        self.assertValue("0.1 + 0.2", {"type": "number", "value": 0.30000000000000004})
        self.assertValue("123456789012345678901234567890", {"type": "number", "value": 123456789012345678901234567890})

    def test_a_multiline_expression_stands_unbracketed(self):
        self.assertValue("[1,\n2]", {"type": ["tuple", ["number", "number"]], "value": [1, 2]})

    def test_a_file_checkov_can_not_parse_is_a_parse_error(self):
        self.assertEqual(self.value("1 +")["error"]["phase"], "parse")
        self.assertEqual(self.value("1e3")["error"]["phase"], "parse")
        # Its parser keeps a heredoc's lines as text: no template syntax error.
        self.assertIn("result", self.ask("a ${", kind="template", level="value"))

    def test_kinds_without_a_checkov_counterpart_are_unsupported(self):
        self.assertUnsupported("1", kind="convert", type="string", level="value")
        self.assertUnsupported("a = 1\n", kind="body", spec={"object": {}}, level="value")
        self.assertUnsupported("var.x", dialect="hil-0.11", level="value")

    def test_an_evaluated_assignment_does_not_reach_the_next_request(self):
        # Within one evaluation Checkov's symbol table takes the assignment in...
        response = self.value('{a = "hclspec_probe = 6", b = "[hclspec_probe]"}')
        self.assertEqual(response["result"]["value"], {"a": "hclspec_probe = 6", "b": [6]})
        # ...but the engine restores the table after every request.
        self.value('"hclspec_probe = 5"')
        self.assertValue('"[hclspec_probe]"', {"type": "string", "value": "[hclspec_probe]"})


# A custom check for `checkov --external-checks-dir`: it records each
# hclspec_case resource's `value` as BaseResourceValueCheck reads it.
RECORDING_CHECK = """
import json, os
from checkov.common.models.enums import CheckCategories, CheckResult
from checkov.terraform.checks.resource.base_resource_check import BaseResourceCheck

class RecordValue(BaseResourceCheck):
    def __init__(self):
        super().__init__(name="records value", id="CKV_HCLSPEC_1", categories=[CheckCategories.GENERAL_SECURITY],
                         supported_resources=["hclspec_case"])

    def scan_resource_conf(self, conf):
        value = conf.get("value")
        if isinstance(value, list) and len(value) == 1:
            value = value[0]
        with open(os.environ["HCLSPEC_RECORD"], "a") as f:
            f.write(json.dumps([conf["__address__"], value]) + "\\n")
        return CheckResult.PASSED

check = RecordValue()
"""


class CommandLineTest(unittest.TestCase):
    """The engine's answer is the value a check gets in a real `checkov -d` run."""

    SOURCES = ['keys({b = 1, a = 2})', "1 == 1", 'trimprefix("abcab", "ab")', "[for i in x : i * 2]", "1 + true", "x[2]", '"5"', '["b", 1, "a"]']

    def test_a_checkov_run_gives_a_check_the_engine_s_values(self):
        checkov = os.path.join(os.path.dirname(os.path.abspath(__file__)), ".venv", "bin", "checkov")
        with tempfile.TemporaryDirectory() as tmp:
            module, checks, record = (os.path.join(tmp, name) for name in ("module", "checks", "record.jsonl"))
            os.mkdir(module)
            os.mkdir(checks)
            with open(os.path.join(checks, "__init__.py"), "w"):
                pass
            with open(os.path.join(checks, "record_value.py"), "w") as f:
                f.write(RECORDING_CHECK)
            with open(os.path.join(module, "main.tf"), "w") as f:
                f.write('variable "x" {\n  default = [3, 1, 2]\n}\n')
                for i, source in enumerate(self.SOURCES):
                    expression = re.sub(r"\bx\b", "var.x", source)
                    f.write(f'resource "hclspec_case" "c{i}" {{\n  value = {expression}\n}}\n')
            run = subprocess.run(
                [checkov, "-d", module, "--external-checks-dir", checks, "-c", "CKV_HCLSPEC_1", "--skip-download",
                 "--framework", "terraform", "--quiet", "--compact"],
                env={**os.environ, "HCLSPEC_RECORD": record}, capture_output=True, text=True, timeout=300,
            )
            self.assertTrue(os.path.exists(record), run.stdout[-3000:] + run.stderr[-3000:])
            with open(record) as f:
                recorded = dict(json.loads(line) for line in f)
        self.assertEqual(len(recorded), len(self.SOURCES), recorded)
        requests = [
            {"id": str(i), "kind": "expression", "source": source, "level": "value", "scope": {"x": NUMBERS}}
            for i, source in enumerate(self.SOURCES)
        ]
        engine = subprocess.run(
            venv_command(__file__), input="".join(json.dumps(r) + "\n" for r in requests),
            capture_output=True, text=True, timeout=120,
        )
        for line in engine.stdout.splitlines():
            answer = json.loads(line)
            source = self.SOURCES[int(answer["id"])]
            self.assertEqual(answer["result"]["value"], recorded[f"hclspec_case.c{answer['id']}"], source)


class RepeatabilityTest(unittest.TestCase):
    def test_a_set_of_strings_comes_out_in_the_same_order_every_run(self):
        # Python orders a set of strings by their hashes, which it randomizes
        # per process unless PYTHONHASHSEED is set; the engine sets it.
        request = {"id": "s", "kind": "expression", "source": 'toset(["a", "b", "c", "d", "e", "f"])', "level": "value"}
        orders = set()
        for _ in range(2):
            run = subprocess.run(
                venv_command(__file__), input=json.dumps(request) + "\n",
                capture_output=True, text=True, timeout=120,
                env={k: v for k, v in os.environ.items() if k != "PYTHONHASHSEED"},
            )
            orders.add(tuple(json.loads(run.stdout)["result"]["value"]))
        self.assertEqual(len(orders), 1, orders)


class OutputTest(unittest.TestCase):
    def test_checkov_s_log_goes_to_stderr_and_the_protocol_to_stdout(self):
        requests = [
            {"id": str(i), "kind": "expression", "source": source, "level": "value"}
            for i, source in enumerate(['try(nosuch(1), "x")', "1 == 1", '"${1 + 2}"'])
        ]
        run = subprocess.run(
            venv_command(__file__, "--log-level", "DEBUG"),
            input="".join(json.dumps(r) + "\n" for r in requests),
            capture_output=True,
            text=True,
            timeout=120,
        )
        self.assertEqual(run.returncode, 0, run.stderr[-2000:])
        answers = [json.loads(line) for line in run.stdout.splitlines()]
        self.assertEqual([a["id"] for a in answers], ["0", "1", "2"])
        self.assertIn("[DEBUG]", run.stderr)


if __name__ == "__main__":
    unittest.main()
