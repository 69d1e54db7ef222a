import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python-common"))

from adapter_testing import EngineTestCase, ParseLevelTests, venv_command  # noqa: E402


class PythonHcl2Test(ParseLevelTests, EngineTestCase):
    COMMAND = venv_command(__file__)

    def test_literals_are_values(self):
        self.assertValue("[1, true, null]", {"type": ["tuple", ["number", "bool", "dynamic"]], "value": [1, True, None]})
        self.assertValue('{a = "x", "b" = -2}', {"type": ["object", {"a": "string", "b": "number"}], "value": {"a": "x", "b": -2}})

    def test_big_integers_stay_exact(self):
        self.assertValue("123456789012345678901234567890", {"type": "number", "value": 123456789012345678901234567890})

    def test_floats_are_unsupported(self):
        self.assertUnsupported("0.1", level="value")
        self.assertUnsupported("[1, 2.5]", level="value")

    def test_expressions_and_escapes_are_unsupported(self):
        self.assertUnsupported("1 + 2", level="value")
        self.assertUnsupported('"a\\nb"', level="value")
        self.assertUnsupported('"${1}"', level="value")
        self.assertUnsupported("abc", kind="template", level="value")

    def test_heredoc_lines_are_not_parsed_as_a_template(self):
        # python-hcl2 keeps a heredoc's lines as text: an unclosed
        # interpolation in a template goes unnoticed.
        self.assertParsed("a ${b", kind="template")

    def test_unterminated_directives_are_rejected(self):
        self.assertRejected('"%{ if true }"')
        self.assertRejected('"%{ for x in [1] }x"')

    def test_value_level_parse_errors(self):
        self.assertEqual(self.ask("[1,", level="value")["error"]["phase"], "parse")


if __name__ == "__main__":
    unittest.main()
