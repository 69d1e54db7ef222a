#!/usr/bin/env python3
"""Talks to engine.py over its stdin and stdout, one request at a time, as a runner does.

Expected answers were checked against the real hashicorp/hcl library (the Go oracle).
Run: python3 -m unittest examples/python-engine/test_engine.py
"""
import json
import os
import subprocess
import sys
import threading
import unittest

ENGINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "engine.py")
SCOPE = {"x": {"type": "number", "value": 3}, "a-b": {"type": "number", "value": 7},
         "name": {"type": "string", "value": "web"},
         "list": {"type": ["list", "number"], "value": [1]}}


def request(rid, source, scope=SCOPE):
    return json.dumps({"id": rid, "kind": "expression", "source": source, "scope": scope})


class EngineTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        env = dict(os.environ)
        env.pop("PYTHONUNBUFFERED", None)  # The engine must flush by itself.
        cls.engine = subprocess.Popen([sys.executable, ENGINE], stdin=subprocess.PIPE, env=env,
                                      stdout=subprocess.PIPE, text=True, encoding="utf-8")
        # An engine that never answers (say, one that does not flush) fails instead of hanging.
        cls.watchdog = threading.Timer(30, cls.engine.kill)
        cls.watchdog.start()

    @classmethod
    def tearDownClass(cls):
        cls.watchdog.cancel()
        cls.engine.stdin.close()
        # The engine must leave by itself, successfully, at the end of its input.
        assert cls.engine.wait(timeout=10) == 0
        cls.engine.stdout.close()

    def ask(self, line):
        # Waiting for each answer before the next request also checks that the engine flushes.
        self.engine.stdin.write(line + "\n")
        self.engine.stdin.flush()
        return json.loads(self.engine.stdout.readline())

    def test_results(self):
        cases = [
            ("1 + 2 * 3 - 4", {"type": "number", "value": 3}),
            ("(1 + 2) * 3", {"type": "number", "value": 9}),
            ("7 / 2", {"type": "number", "value": 3.5}),
            ("x * 2.5 - -1", {"type": "number", "value": 8.5}),
            ("a-b", {"type": "number", "value": 7}),  # One identifier: HCL names may contain "-".
            ('name == "web" && !false', {"type": "bool", "value": True}),
            ("1 == 1 != false || false", {"type": "bool", "value": True}),
            ("null", {"type": "dynamic", "value": None}),
        ]
        for i, (source, want) in enumerate(cases):
            with self.subTest(source=source):
                answer = self.ask(request(f"r{i}", source))
                self.assertEqual(answer, {"id": f"r{i}", "result": want})

    def test_numbers_are_written_exactly(self):
        # Read as text: json.loads would hide a number that went through a float.
        self.engine.stdin.write(request("big", "12345678901234567890123 + 1", {}) + "\n")
        self.engine.stdin.flush()
        self.assertEqual(self.engine.stdout.readline().strip(),
                         '{"id":"big","result":{"type":"number","value":12345678901234567890124}}')

    def test_errors(self):
        cases = [
            ("(1", "parse", "Unbalanced parentheses"),
            ("1 +", "parse", "Missing expression"),
            ("1 2", "parse", "Extra characters after expression"),
            ("1 + + 2", "parse", "Invalid expression"),
            ("x + y", "eval", "Unknown variable"),
            ("x-1", "eval", "Unknown variable"),  # Not a subtraction: the variable "x-1".
        ]
        for i, (source, phase, summary) in enumerate(cases):
            with self.subTest(source=source):
                answer = self.ask(request(f"e{i}", source))
                self.assertEqual(answer["id"], f"e{i}")
                error = answer["error"]
                self.assertEqual((error["phase"], error["summary"]), (phase, summary))

    def test_unsupported(self):
        # Real HCL answers all of these (with a result or an error); the example must not guess.
        sources = ["list[0]", "upper(name)", "x > 1", "0.1 + 0.2", '"a" + 1', "1 / 0"]
        for i, source in enumerate(sources):
            with self.subTest(source=source):
                answer = self.ask(request(f"u{i}", source))
                self.assertEqual(set(answer), {"id", "unsupported"})
                self.assertEqual(answer["id"], f"u{i}")

    def test_malformed_requests(self):
        cases = [
            ("not json", None),
            ("[1, 2]", None),
            ('{"id": "m1", "kind": "expression"}', "m1"),  # No source.
            (request("m2", "x", {"x": {"type": "number", "value": "3"}}), "m2"),  # Not a number.
        ]
        for line, rid in cases:
            with self.subTest(line=line):
                answer = self.ask(line)
                self.assertEqual(answer["id"], rid)
                self.assertEqual(answer["error"]["phase"], "request")
        self.assertEqual(self.ask(request("after", "1"))["result"]["value"], 1)  # Still serving.

    def test_blank_lines_get_no_answer(self):
        self.engine.stdin.write("\n   \n")
        self.assertEqual(self.ask(request("b", "2"))["id"], "b")


if __name__ == "__main__":
    unittest.main()
