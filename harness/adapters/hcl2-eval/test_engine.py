import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python-common"))

from adapter_testing import EngineTestCase, ParseLevelTests, venv_command  # noqa: E402


class Hcl2EvalTest(ParseLevelTests, EngineTestCase):
    COMMAND = venv_command(__file__)

    def test_literals_are_values(self):
        self.assertValue('[1, "b", true, null]', {"type": ["tuple", ["number", "string", "bool", "dynamic"]], "value": [1, "b", True, None]})

    def test_variables_come_from_the_scope(self):
        scope = {"n": {"type": "number", "value": 12345678901234567890123}, "s": {"type": ["list", "string"], "value": ["x"]}}
        response = self.ask("[n]", level="value", scope=scope)
        self.assertEqual(response, {"result": {"type": ["tuple", ["number"]], "value": [12345678901234567890123]}})
        response = self.ask("s", level="value", scope=scope)
        self.assertEqual(response, {"result": {"type": ["tuple", ["string"]], "value": ["x"]}})

    def test_object_constructors_break_its_ast(self):
        self.assertIn("crash", self.ask("{a = 1}"))

    def test_nested_collections_break_its_type_hints(self):
        # Its ValueType allows one level of lists and dicts; beartype refuses
        # a deeper result.
        self.assertIn("crash", self.ask("[[1]]", level="value"))

    def test_an_unknown_variable_is_an_eval_error(self):
        self.assertEqual(self.ask("missing", level="value")["error"]["phase"], "eval")

    def test_fractional_scope_numbers_are_unsupported(self):
        scope = {"f": {"type": "number", "value": 0.5}}
        self.assertUnsupported("f", level="value", scope=scope)

    def test_operators_calls_and_floats_are_unsupported(self):
        self.assertUnsupported("1 + 2", level="value")
        self.assertUnsupported("-1", level="value")
        self.assertUnsupported('upper("a")', level="value")
        self.assertUnsupported("1.5", level="value")
        self.assertUnsupported('"a${b}"', level="value")

    def test_text_kept_by_the_ast_is_unsupported(self):
        self.assertUnsupported('true ? "a" : "b"', level="value")
        self.assertUnsupported("[1][0]", level="value")

    def test_the_debugger_is_a_crash_not_a_hang(self):
        # hcl2-ast calls pdb.set_trace() when a literal's text names an
        # Identifier, as it does for an index.
        self.assertIn("crash", self.ask("x[0]", level="value"))


if __name__ == "__main__":
    unittest.main()
