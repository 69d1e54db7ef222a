"""Test support for the adapters: starts an engine as a subprocess and
talks to it line by line, as hclspec does."""

import json
import os
import subprocess
import unittest

from hclspec_adapter import expression_bodies


class EngineTestCase(unittest.TestCase):
    """A test case with one running engine; subclasses set ``COMMAND`` (the
    argument vector) and call ``ask``."""

    COMMAND = None

    @classmethod
    def setUpClass(cls):
        program = cls.COMMAND[0]
        if not os.path.exists(program):
            raise FileNotFoundError(
                f"{program} is missing: run the adapter's setup.sh first"
            )
        cls.engine = subprocess.Popen(
            cls.COMMAND,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )

    @classmethod
    def tearDownClass(cls):
        cls.engine.stdin.close()
        cls.engine.wait(timeout=30)
        cls.engine.stdout.close()

    def ask(self, source, kind="expression", level="parse", **fields):
        request = {"id": "t", "kind": kind, "source": source, "level": level, **fields}
        self.engine.stdin.write(json.dumps(request) + "\n")
        self.engine.stdin.flush()
        line = self.engine.stdout.readline()
        self.assertTrue(line, "the engine closed its output")
        response = json.loads(line)
        self.assertEqual(response.pop("id"), "t")
        return response

    def assertParsed(self, source, kind="expression", **fields):
        self.assertEqual(self.ask(source, kind, **fields), {"parsed": True}, source)

    def assertRejected(self, source, kind="expression", **fields):
        response = self.ask(source, kind, **fields)
        self.assertEqual(response.get("error", {}).get("phase"), "parse", (source, response))

    def assertUnsupported(self, source, kind="expression", **fields):
        self.assertIn("unsupported", self.ask(source, kind, **fields), source)

    def assertValue(self, source, expected):
        self.assertEqual(self.ask(source, level="value"), {"result": expected}, source)


def venv_command(test_file, *args):
    """The command running ``engine.py`` beside ``test_file`` with the
    adapter's own virtualenv."""
    here = os.path.dirname(os.path.abspath(test_file))
    return [os.path.join(here, ".venv", "bin", "python"), os.path.join(here, "engine.py"), *args]


class ParseLevelTests:
    """Parse-level tests every adapter passes: they exercise the wrapping of
    expressions and templates into bodies, and the answers for what a parser
    can not tell. Mixed into an ``EngineTestCase``."""

    def test_accepts_an_expression(self):
        self.assertParsed("1 + 2")

    def test_rejects_a_missing_operand(self):
        self.assertRejected("1 +")

    def test_rejects_two_attributes(self):
        self.assertRejected("1\nb = 2")

    def test_accepts_an_expression_over_lines(self):
        self.assertParsed("[1,\n2]")

    def test_rejects_a_source_that_closes_the_wrapping(self):
        self.assertRejected("1\n) + (2")
        self.assertRejected("1\n], [2")

    def test_a_heredoc_needs_a_line_break_after_its_marker(self):
        self.assertParsed("<<EOT\nhello\nEOT\n")
        # The wrapping adds none after a closing marker on the last line.
        self.assertEqual(
            expression_bodies("<<EOT\nhello\nEOT"),
            ["a = (<<EOT\nhello\nEOT)\n", "a = [<<EOT\nhello\nEOT]\n"],
        )
        self.assertEqual(
            expression_bodies("[1, # one\n2] # two"),
            ["a = ([1, # one\n2] # two\n)\n", "a = [[1, # one\n2] # two\n]\n"],
        )

    def test_accepts_a_template(self):
        self.assertParsed("a ${b} c", kind="template")

    def test_a_template_may_contain_the_heredoc_marker(self):
        self.assertParsed("HCLSPEC_TEMPLATE_END\nx", kind="template")

    def test_accepts_a_body(self):
        self.assertParsed('b "l" {\n  x = 1\n}\n', kind="body", spec={"object": {}})

    def test_rejects_an_unclosed_block(self):
        self.assertRejected("b {\n  x = 1\n", kind="body", spec={"object": {}})

    def test_type_constraints_are_unsupported(self):
        self.assertUnsupported("1", kind="convert", type="number")

    def test_a_conversion_whose_source_does_not_parse_is_rejected(self):
        self.assertRejected("1 +", kind="convert", type="number")

    def test_other_dialects_are_unsupported(self):
        self.assertUnsupported("${x}", dialect="hil-0.11")

    def test_a_line_that_is_not_utf8_is_a_request_error(self):
        self.engine.stdin.buffer.write(b'{"id": "\xff"}\n')
        self.engine.stdin.flush()
        response = json.loads(self.engine.stdout.readline())
        self.assertEqual(response["error"]["phase"], "request")
        self.assertParsed("1")

    def test_a_malformed_request_is_a_request_error(self):
        self.engine.stdin.write("not json\n")
        self.engine.stdin.flush()
        response = json.loads(self.engine.stdout.readline())
        self.assertEqual(response["error"]["phase"], "request")
        self.assertIsNone(response["id"])
        self.assertParsed("1")
