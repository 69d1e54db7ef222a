import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python-common"))

from adapter_testing import EngineTestCase, ParseLevelTests, venv_command  # noqa: E402


class Pyhcl2Test(ParseLevelTests, EngineTestCase):
    COMMAND = venv_command(__file__)

    def test_a_rejection_gives_its_diagnostic_code(self):
        error = self.ask("1 +")["error"]
        self.assertIn("pyhcl2::parser::unexpected_eof", error["summary"])

    def test_parses_expressions_unwrapped(self):
        self.assertParsed("[for x in y: x if x]")
        self.assertParsed("a[*].b")
        self.assertRejected("[for x in y x]")
        # A comment with no line break after it: its grammar's comments end
        # with one, which a body always has and a lone expression need not.
        self.assertRejected("1 # one")

    def test_a_conditional_can_not_hold_another_unparenthesized(self):
        # Its grammar's branches are or-expressions.
        self.assertRejected("true ? 1 : false ? 2 : 3")
        self.assertParsed("true ? 1 : (false ? 2 : 3)")

    def test_an_object_key_its_tree_can_not_hold_is_a_crash(self):
        # Its transformer makes such a key a list, which a dict refuses.
        self.assertIn("unhashable", self.ask('{upper("a") = 1}')["crash"])
        self.assertParsed('{"a" = 1}')

    def test_takes_a_template_whole(self):
        # A string is one token, which only asks that an interpolation be
        # closed; a heredoc's lines are not looked at.
        self.assertParsed('"${1 +}"')
        self.assertRejected('"${"')
        self.assertParsed("a ${b", kind="template")

    def test_a_heredoc_needs_a_line_of_content(self):
        self.assertRejected("", kind="template")

    def test_nesting_too_deep_for_python_is_a_crash_and_the_engine_goes_on(self):
        self.assertIn("RecursionError", self.ask("(" * 5000 + "1" + ")" * 5000)["crash"])
        self.assertParsed("((1))")


if __name__ == "__main__":
    unittest.main()
