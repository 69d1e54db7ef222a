"""Unit tests of the Terraform 0.11 oracle's pieces that need no Terraform: reading requests,
attributing Terraform's error messages to outputs, and typing values."""
import json
import os
import sys
import unittest

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "shared"))

from oracleio import RequestError  # noqa: E402

from hiloracle import errors, requests, values  # noqa: E402


def request(source, kind="expression", scope=None, **extra):
    doc = {"id": "x", "kind": kind, "source": source, "dialect": "hil-0.11", **extra}
    if scope is not None:
        doc["scope"] = scope
    return json.dumps(doc)


def var(types, value):
    return {"var": {"type": ["object", types], "value": value}}


class RequestsTest(unittest.TestCase):
    def test_expression_is_wrapped_template_is_not(self):
        self.assertEqual(requests.parse(request("1 + 2")).text, "${1 + 2}")
        self.assertEqual(requests.parse(request("a$${b}", "template")).text, "a$${b}")

    def test_scope_becomes_variables(self):
        case = requests.parse(request("var.s", scope=var(
            {"s": "string", "l": ["list", "string"], "m": ["map", "string"]},
            {"s": "${x}", "l": ["a"], "m": {"k": "v"}})))
        self.assertEqual(case.variables, {"s": "${x}", "l": ["a"], "m": {"k": "v"}})

    def test_equal_scopes_share_a_group(self):
        a = requests.parse(request("1", scope=var({"a": "string", "b": "string"},
                                                   {"a": "1", "b": "2"})))
        b = requests.parse(request("2", scope=var({"b": "string", "a": "string"},
                                                   {"b": "2", "a": "1"})))
        self.assertEqual(a.group, b.group)

    def test_other_scopes_are_request_errors(self):
        bad = [
            {"local": {"type": "string", "value": "a"}},
            var({"n": "number"}, {"n": 1}),
            var({"l": ["list", "number"]}, {"l": [1]}),
            var({"s": "string"}, {"s": None}),
            var({"s": "string"}, {"s": ["a"]}),
            var({"a.b": "string"}, {"a.b": "x"}),
            {"var": {"type": ["object", {"s": "string"}], "value": {"s": None},
                     "unknown": [["s"]]}},
            {"var": {"type": "string", "value": "a"}},
        ]
        for scope in bad:
            with self.assertRaises(RequestError, msg=json.dumps(scope)):
                requests.parse(request("1", scope=scope))

    def test_what_it_cannot_answer_is_unsupported(self):
        for line in [json.dumps({"id": "x", "kind": "expression", "source": "1"}),
                     request("1", kind="convert", type="string"),
                     request("path.module"), request("${path.cwd}/x", "template")]:
            with self.assertRaises(requests.Answered, msg=line) as caught:
                requests.parse(line)
            self.assertEqual(caught.exception.args[0], "x")
            self.assertIn("unsupported", caught.exception.args[1])

    def test_malformed_requests(self):
        for line in ["nope", "[]", '{"kind": "expression", "source": "1"}',
                     request("1", extra_field=1), request("1", hcl_version="9")]:
            with self.assertRaises(RequestError, msg=line):
                requests.parse(line)


def case(text, kind="template"):
    return requests.Case("x", kind, text, {}, None)


class ErrorsTest(unittest.TestCase):
    STDERR = ("\nError: output 'c1': unknown variable referenced: 'nope'; define it with a "
              "'variable' block\n\n\n"
              "\nError: output \"c10\": count variables are only valid within resources\n\n\n"
              "\nError: output 'c10': second error about c10\n\n\n"
              "\nError: output.c2: 1:3: unknown function called: f in:\n\n${f()}\nError: x"
              "\n\n\n")

    def test_first_error_of_each_output(self):
        found = errors.by_output(self.STDERR, ["c1", "c10", "c2", "c3"])
        self.assertEqual(found["c1"], (errors.VALIDATE, "unknown variable referenced: 'nope'; "
                                                        "define it with a 'variable' block"))
        self.assertEqual(found["c10"], (errors.VALIDATE,
                                        "count variables are only valid within resources"))
        self.assertEqual(found["c2"], (errors.APPLY,
                                       "1:3: unknown function called: f in:\n\n${f()}\nError: x"))
        self.assertNotIn("c3", found)

    def test_validation_errors_in_any_order_give_one_answer(self):
        one = "\nError: output 'c0': unknown variable referenced: 'b'\n\n\n"
        two = "\nError: output 'c0': unknown variable referenced: 'a'\n\n\n"
        for stderr in (one + two, two + one):
            self.assertEqual(errors.by_output(stderr, ["c0"])["c0"],
                             (errors.VALIDATE, "unknown variable referenced: 'a'"))

    def test_load_error(self):
        stderr = ("\nError: Error loading /example/main.tf.json: Error reading config for output "
                  "c7: parse error at 1:3: expected expression but found end of string\n\n\n")
        self.assertEqual(errors.by_output(stderr, ["c7"]), {"c7": (
            errors.LOAD, "parse error at 1:3: expected expression but found end of string")})

    def test_answer_drops_the_source_and_the_position(self):
        text = "${f()}\nError: x"
        answer = errors.answer(errors.APPLY, "1:3: unknown function called: f in:\n\n" + text,
                               case(text))
        self.assertEqual(answer, {"error": {
            "phase": "eval", "summary": "unknown function called: f",
            "range": {"start": {"line": 1, "column": 3, "byte": 2},
                      "end": {"line": 1, "column": 3, "byte": 2}}}})

    def test_expression_columns_move_back_past_the_added_braces(self):
        answer = errors.answer(errors.APPLY, "At column 9, line 1: oops in:\n\n${\"é\" + f()}",
                               case('${"é" + f()}', "expression"))
        self.assertEqual(answer["error"]["range"]["start"], {"line": 1, "column": 7, "byte": 7})
        outside = errors.answer(errors.APPLY, "At column 1, line 1: whole in:\n\n${x}",
                                case("${x}", "expression"))
        self.assertEqual(outside, {"error": {"phase": "eval", "summary": "whole"}})

    def test_later_lines_keep_their_columns(self):
        text = "${1 +\n nosuch()}"
        answer = errors.answer(errors.APPLY, "2:2: unknown function called: nosuch in:\n\n"
                               + text, case(text, "expression"))
        self.assertEqual(answer["error"]["range"]["start"], {"line": 2, "column": 2, "byte": 5})

    def test_parse_errors_keep_their_text(self):
        answer = errors.answer(errors.LOAD, "parse error at 1:6: expected expression but found "
                                            "\"}\"", case("${1 +}", "expression"))
        self.assertEqual(answer, {"error": {"phase": "parse", "summary": "parse error at 1:6: "
                                            "expected expression but found \"}\""}})

    def test_color_tags_may_be_printed_away(self):
        self.assertTrue(errors.may_have_lost_tags(case('${f("[red]x")}')))
        self.assertTrue(errors.may_have_lost_tags(requests.Case(
            "x", "template", "${var.m}", {"m": {"[bold]": "v"}}, None)))
        self.assertFalse(errors.may_have_lost_tags(case('${f("[x]")}')))


class ValuesTest(unittest.TestCase):
    def test_types(self):
        table = [
            ("a", "string"),
            ([], ["list", "string"]),
            ({}, ["map", "string"]),
            (["a", "b"], ["list", "string"]),
            ([[], ["a"]], ["list", ["list", "string"]]),
            (["a", ["b"]], ["tuple", ["string", ["list", "string"]]]),
            ({"a": "1", "b": ["x"]}, ["object", {"a": "string", "b": ["list", "string"]}]),
            ([{"a": "b"}, {}], ["list", ["map", "string"]]),
        ]
        for value, ty in table:
            self.assertEqual(values.typed(value), ty, value)

    def test_only_strings_lists_and_maps(self):
        self.assertIn("crash", values.answer({"value": [1]}))
        self.assertIn("crash", values.answer(None))


if __name__ == "__main__":
    unittest.main()
