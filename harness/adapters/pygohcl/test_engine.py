import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python-common"))

from adapter_testing import EngineTestCase, ParseLevelTests, venv_command  # noqa: E402


class PygohclTest(ParseLevelTests, EngineTestCase):
    COMMAND = venv_command(__file__)

    def test_rejects_an_unclosed_interpolation(self):
        self.assertRejected("a ${b", kind="template")

    def test_rejects_a_crossed_directive(self):
        self.assertRejected("%{ if true }a%{ endfor }", kind="template")

    def test_accepts_what_go_accepts(self):
        self.assertParsed("{ é = 1 }.é")
        self.assertParsed("1e3")
        self.assertParsed("[for x in [1] : x if x > 0]")

    def test_go_s_diagnostic_is_the_summary(self):
        # The wrapping ends the expression with a line break.
        error = self.ask("1 +")["error"]
        self.assertEqual(error["summary"], "Invalid expression")

    def test_errors_of_the_conversion_come_after_parsing(self):
        self.assertParsed("-true")
        self.assertParsed("1e5000")

    def test_a_panic_in_the_conversion_is_a_crash(self):
        self.assertIn("crash", self.ask("{null = 1}"))

    def test_a_nul_byte_is_unsupported(self):
        self.assertUnsupported('"a\x00b"')

    def test_answers_only_the_parse_level(self):
        self.assertParsed("1", level="value")


if __name__ == "__main__":
    unittest.main()
