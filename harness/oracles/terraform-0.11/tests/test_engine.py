"""End-to-end tests of the Terraform 0.11 oracle engine: requests in, real Terraform 0.11.11's
answers out. They need the engine's virtualenv, which `scripts/setup` provides."""
import json
import os
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENGINE = os.path.join(HERE, "engine")

# Strings that must reach Terraform exactly: quotes, backslashes, escapes of HIL and of other
# languages, newlines, characters beyond ASCII and beyond the BMP, control characters.
TRICKY = ['say "hi"', "back\\slash\\", "\\n\\t\\u0041", "line1\nline2\r\n", "\ttab",
          "héllo wörld ☃ 😀", "\u2028\u0085\x7f\x01", "%{ if x }y%{ endif }", "{}}{",
          "[red]colour[reset]", "a'b`c", "<<EOF\nx\nEOF", "# not a comment", ""]


def run_engine(requests, *args):
    lines = "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in requests)
    done = subprocess.run([ENGINE, *args], input=lines.encode(), capture_output=True,
                          timeout=300, check=True)
    # Split on newlines only: answers may hold U+2028 and other line breaks as themselves.
    return [json.loads(line) for line in done.stdout.decode().split("\n") if line]


def hil(rid, source, kind="expression", scope=None, **extra):
    request = {"id": rid, "kind": kind, "source": source, "dialect": "hil-0.11", **extra}
    if scope:
        request["scope"] = scope
    return request


SCOPE = {"var": {"type": ["object", {"s": "string", "l": ["list", "string"],
                                     "m": ["map", "string"]}],
                 "value": {"s": "${not interpolated} $${x} \"q\" \\", "l": ["a", "b"],
                           "m": {"k": "v"}}}}


class EngineTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.base = tempfile.TemporaryDirectory()
        with open(os.path.join(cls.base.name, "hello.txt"), "w") as f:
            f.write("hi\n")
        requests = [
            hil("sum", "1 + 2"),
            hil("float", "10 / 4.0"),
            hil("wrap", "9223372036854775807 + 1"),
            hil("list", "var.l", scope=SCOPE),
            hil("map", "var.m", scope=SCOPE),
            hil("scope-literal", "var.s", scope=SCOPE),
            hil("nested", 'map("a", list("y"), "b", list("x", "z"))'),
            hil("tpl", "a${var.l[1]}$${x}$$y\\${1}", kind="template", scope=SCOPE),
            hil("load", "var.l.0", scope=SCOPE),
            hil("load-2", "1 +"),
            hil("validate", "var.nope", scope=SCOPE),
            hil("apply", '"é" + nosuch()'),
            hil("apply-at", "5.5 % 2"),
            hil("panic", 'indent(-1, "a\\nb")'),
            hil("file", 'file("hello.txt")', base_dir=cls.base.name),
            hil("home", 'pathexpand("~/x")'),
            hil("cwd", "path.cwd"),
            hil("tags", 'file("[red]x")'),
            hil("tags-result", 'upper("[red]x")'),
            {"id": "hcl2", "kind": "expression", "source": "1"},
            "not json",
            hil("number-scope", "var.n", scope={"var": {"type": ["object", {"n": "number"}],
                                                        "value": {"n": 1}}}),
        ]
        requests += [hil(f"tricky-{i}", s, kind="template") for i, s in enumerate(TRICKY)]
        requests += [hil(f"quoted-{i}", json.dumps(s, ensure_ascii=False))
                     for i, s in enumerate(TRICKY)
                     if "\\" not in s and all(c >= " " for c in s)]
        cls.requests = requests
        cls.answers = run_engine(requests)
        cls.by_id = {a["id"]: a for a in cls.answers}

    @classmethod
    def tearDownClass(cls):
        cls.base.cleanup()

    def result(self, rid):
        answer = self.by_id[rid]
        self.assertIn("result", answer, answer)
        return answer["result"]

    def error(self, rid):
        answer = self.by_id[rid]
        self.assertIn("error", answer, answer)
        return answer["error"]

    def test_answers_keep_request_order(self):
        self.assertEqual(len(self.answers), len(self.requests))
        ids = [r["id"] if isinstance(r, dict) else None for r in self.requests]
        self.assertEqual([a["id"] for a in self.answers], ids)

    def test_values_are_strings_lists_and_maps(self):
        self.assertEqual(self.result("sum"), {"type": "string", "value": "3"})
        self.assertEqual(self.result("float"), {"type": "string", "value": "2.5"})
        self.assertEqual(self.result("wrap")["value"], "-9223372036854775808")
        self.assertEqual(self.result("list"), {"type": ["list", "string"], "value": ["a", "b"]})
        self.assertEqual(self.result("map"), {"type": ["map", "string"], "value": {"k": "v"}})
        self.assertEqual(self.result("nested"), {"type": ["map", ["list", "string"]],
                                                 "value": {"a": ["y"], "b": ["x", "z"]}})

    def test_scope_values_are_never_interpolated(self):
        self.assertEqual(self.result("scope-literal")["value"], SCOPE["var"]["value"]["s"])

    def test_templates(self):
        self.assertEqual(self.result("tpl")["value"], "ab${x}$y\\1")

    def test_strings_reach_terraform_exactly(self):
        for i, text in enumerate(TRICKY):
            self.assertEqual(self.result(f"tricky-{i}"), {"type": "string", "value": text})
            if f"quoted-{i}" in self.by_id:
                self.assertEqual(self.result(f"quoted-{i}")["value"], text)

    def test_error_forms(self):
        self.assertEqual(self.error("load"), {
            "phase": "parse",
            "summary": "Invalid dot index found: 'var.l.0'. Values in maps and lists can be "
                       "referenced using square bracket indexing, like: 'var.mymap[\"key\"]' or "
                       "'var.mylist[1]'."})
        self.assertEqual(self.error("load-2")["phase"], "parse")
        self.assertEqual(self.error("validate"), {
            "phase": "eval",
            "summary": "unknown variable referenced: 'nope'; define it with a 'variable' block"})
        self.assertEqual(self.error("apply"), {
            "phase": "eval", "summary": "unknown function called: nosuch",
            "range": {"start": {"line": 1, "column": 7, "byte": 7},
                      "end": {"line": 1, "column": 7, "byte": 7}}})
        self.assertEqual(self.error("apply-at")["summary"], "modulo cannot be used with floats")

    def test_a_terraform_crash_is_one_case_s_crash(self):
        self.assertIn("crash", self.by_id["panic"])

    def test_environment(self):
        self.assertEqual(self.result("file")["value"], "hi\n")
        self.assertEqual(self.result("home")["value"], "/home/hclspec/x")
        self.assertIn("unsupported", self.by_id["cwd"])

    def test_messages_printed_without_their_tags_are_not_answered(self):
        self.assertIn("unsupported", self.by_id["tags"])
        self.assertEqual(self.result("tags-result")["value"], "[RED]X")

    def test_what_it_cannot_answer(self):
        self.assertIn("unsupported", self.by_id["hcl2"])
        self.assertEqual(self.by_id[None]["error"]["phase"], "request")
        self.assertEqual(self.error("number-scope")["phase"], "request")


if __name__ == "__main__":
    unittest.main()
