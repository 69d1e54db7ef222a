import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python-common"))

from adapter_testing import EngineTestCase, ParseLevelTests, venv_command  # noqa: E402


class TreeSitterHclTest(ParseLevelTests, EngineTestCase):
    COMMAND = venv_command(__file__)

    def test_rejects_an_unclosed_interpolation(self):
        self.assertRejected("a ${b", kind="template")

    def test_a_missing_token_is_a_rejection(self):
        error = self.ask("[1, 2")["error"]
        self.assertTrue(error["summary"].startswith("missing"), error)

    def test_an_error_node_is_a_rejection(self):
        error = self.ask("1 ) 2")["error"]
        self.assertTrue(error["summary"].startswith("syntax error"), error)

    def test_accepts_templates_and_heredocs(self):
        self.assertParsed('"a ${b} %{ if c }d%{ endif }"')
        self.assertParsed("<<EOT\nhi\nEOT\n")


if __name__ == "__main__":
    unittest.main()
