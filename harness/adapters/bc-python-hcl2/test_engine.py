import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python-common"))

from adapter_testing import EngineTestCase, ParseLevelTests, venv_command  # noqa: E402


class BcPythonHcl2Test(ParseLevelTests, EngineTestCase):
    COMMAND = venv_command(__file__)

    def test_heredoc_lines_are_not_parsed_as_a_template(self):
        # Like python-hcl2, it keeps a heredoc's lines as text.
        self.assertParsed("a ${b", kind="template")

    def test_literals_are_values(self):
        self.assertValue("[1, true, null]", {"type": ["tuple", ["number", "bool", "dynamic"]], "value": [1, True, None]})
        self.assertValue('{a = "x", "b" = [2]}', {"type": ["object", {"a": "string", "b": ["tuple", ["number"]]}], "value": {"a": "x", "b": [2]}})

    def test_big_integers_stay_exact(self):
        self.assertValue("123456789012345678901234567890", {"type": "number", "value": 123456789012345678901234567890})

    def test_floats_are_unsupported(self):
        self.assertUnsupported("0.1", level="value")

    def test_expressions_and_escapes_are_unsupported(self):
        self.assertUnsupported("-1", level="value")
        self.assertUnsupported('"a\\nb"', level="value")
        self.assertUnsupported('["${1}"]', level="value")

    def test_a_heredoc_is_the_library_s_string(self):
        # The library drops the heredoc's final line break (HCL keeps it).
        self.assertValue("<<EOT\nhi\nEOT\n", {"type": "string", "value": "hi"})

    def test_its_quote_check_rejects(self):
        error = self.ask('"abc')["error"]
        self.assertTrue(error["summary"].startswith("Line has unclosed quote marks"), error)

    def test_exponents_are_rejected(self):
        # Its grammar has no exponent (HCL reads 1e3 as 1000).
        self.assertRejected("1e3")


if __name__ == "__main__":
    unittest.main()
