"""Unit tests of the Terraform oracle's pieces that need no Terraform: exact JSON, rendering
typed values as Terraform expressions, decoding planned values, and the batch's bisection."""
import decimal
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import msgpack  # noqa: E402

from tforacle import batch, cty, exactjson, kinds, planfile, versions  # noqa: E402
from tforacle.terraform import TerraformFailure  # noqa: E402

U = "U"  # the unknown expression in rendering tables


class ExactJsonTest(unittest.TestCase):
    def test_numbers_keep_every_digit(self):
        for text in ["0.1000000000000000000000000000000000001", "-0", "1E+400", "-0.0",
                     "123456789012345678901234567890123456789", "5" * 5000]:
            doc = exactjson.loads(f'{{"v": {text}}}')
            self.assertEqual(exactjson.dumps(doc), f'{{"v":{text}}}')

    def test_minus_zero_stays_negative(self):
        value = exactjson.loads("-0.0")
        self.assertTrue(value.is_signed())

    def test_no_floats_written(self):
        with self.assertRaises(TypeError):
            exactjson.dumps(0.5)


class RenderTest(unittest.TestCase):
    def render(self, ty, value, unknown=(), sensitive=()):
        typed = {"type": ty, "value": value, "unknown": list(unknown),
                 "sensitive": list(sensitive)}
        return cty.render(typed, U)

    def test_table(self):
        d = decimal.Decimal
        table = [
            ("string", "a\"\\\n${x}%{y}\t\x01", '"a\\"\\\\\\n$${x}%%{y}\\t\\u0001"'),
            ("number", d("0.1"), "0.1"),
            ("number", "-Infinity", 'yamldecode("-.inf")'),
            ("bool", False, "false"),
            (["list", "number"], [1, None], "convert([1, convert(null, number)], list(number))"),
            (["set", "string"], [], "convert([], set(string))"),
            (["map", "bool"], {"k": True}, 'convert({"k" = true}, map(bool))'),
            (["tuple", ["string", "dynamic"]], ["a", None], '["a", null]'),
            (["object", {"a b": "number"}], {"a b": 1}, '{"a b" = 1}'),
            ("dynamic", {"value": ["a"], "type": ["list", "string"]},
             'convert(["a"], list(string))'),
            (["object", {"a": ["list", "dynamic"]}], None,
             "convert(null, object({a = list(any)}))"),
        ]
        for ty, value, want in table:
            self.assertEqual(self.render(ty, value), want, (ty, value))

    def test_unknown_and_sensitive_parts(self):
        self.assertEqual(self.render("dynamic", None, unknown=[[]]), U)
        self.assertEqual(self.render(["list", "string"], ["a", None], unknown=[[1]]),
                         f'convert(["a", convert({U}, string)], list(string))')
        self.assertEqual(
            self.render(["object", {"a": "number"}], {"a": 1}, sensitive=[[], ["a"]]),
            'sensitive({"a" = sensitive(1)})')

    def test_inexpressible(self):
        with self.assertRaises(cty.Inexpressible):
            self.render(["object", {"a b": "string"}], None)
        with self.assertRaises(cty.Inexpressible):
            self.render(["list", "string"], ["a"], sensitive=[[0]])

    def test_bad_values(self):
        for ty, value in [("string", 1), ("number", "1"), ("bool", None and 1 or "x"),
                          (["tuple", ["string"]], []), (["object", {"a": "string"}], {}),
                          (["nope", "string"], [])]:
            with self.assertRaises(cty.BadValue, msg=(ty, value)):
                self.render(ty, value)


class ConversionNodesTest(unittest.TestCase):
    """Rendering for a Terraform without `convert`: each part to convert is the argument of a
    conversion node (here `T0`, `T1`, ... recorded with their type constraints)."""

    def render(self, ty, value, unknown=(), sensitive=()):
        nodes = []

        def typed_node(argument, constraint):
            nodes.append((argument, constraint))
            return f"T{len(nodes) - 1}"

        typed = {"type": ty, "value": value, "unknown": list(unknown),
                 "sensitive": list(sensitive)}
        return cty.render(typed, U, typed_node), nodes

    def test_table(self):
        table = [
            # What a literal writes exactly needs no node.
            ("string", "a", '"a"', []),
            (["object", {"a b": "number", "c": ["tuple", ["bool"]]}], {"a b": 1, "c": [True]},
             '{"a b" = 1, "c" = [true]}', []),
            (["object", {"a": "dynamic"}], {"a": None}, '{"a" = null}', []),
            (["list", "number"], [], "T0", [("[]", "list(number)")]),
            (["map", "string"], None, "T0", [("null", "map(string)")]),
            (["list", ["list", "number"]], [[1, None], []], "T0",
             [("[[1, null], []]", "list(list(number))")]),
            # The node is as high up as it can be: the whole value.
            (["tuple", ["string", ["set", "bool"]]], ["a", [True]], "T0",
             [('["a", [true]]', "tuple([string, set(bool)])")]),
            # Unless a type constraint cannot name an attribute.
            (["object", {"a b": ["list", "number"], "c": "string"}], {"a b": [], "c": "x"},
             '{"a b" = T0, "c" = "x"}', [("[]", "list(number)")]),
            # Where the type says `any`, a value keeps its own type: it is converted first.
            (["list", "dynamic"], [{"value": [1], "type": ["list", "number"]}], "T1",
             [("[1]", "list(number)"), ("[T0]", "list(any)")]),
            (["object", {"a": "dynamic", "b": ["map", "bool"]}],
             {"a": {"value": ["x"], "type": ["tuple", ["string"]]}, "b": {}}, "T0",
             [('{"a" = ["x"], "b" = {}}', "object({a = any, b = map(bool)})")]),
        ]
        for ty, value, want, nodes in table:
            self.assertEqual(self.render(ty, value), (want, nodes), (ty, value))

    def test_unknowns_are_converted_by_their_node(self):
        self.assertEqual(self.render(["object", {"a": "string"}], None, unknown=[[]]),
                         ("T0", [(U, "object({a = string})")]))
        self.assertEqual(self.render(["list", "string"], ["a", None], unknown=[[1]]),
                         ("T0", [(f'["a", {U}]', "list(string)")]))
        self.assertEqual(self.render("dynamic", None, unknown=[[]]), (U, []))

    def test_sensitive_marks_are_put_back_after_the_node(self):
        self.assertEqual(
            self.render(["object", {"a": "string", "b": ["list", "number"],
                                    "c": ["tuple", ["bool", "string"]]}],
                        {"a": "s", "b": [1], "c": [True, "t"]},
                        sensitive=[[], ["b"], ["c", 1]]),
            ('sensitive({"a" = T0["a"], "b" = sensitive(T0["b"]), '
             '"c" = [T0["c"][0], sensitive(T0["c"][1])]})',
             [('{"a" = "s", "b" = [1], "c" = [true, "t"]}',
               "object({a = string, b = list(number), c = tuple([bool, string])})")]))
        # Without a node, marks are written as they are with `convert`.
        self.assertEqual(self.render(["tuple", ["string"]], ["s"], sensitive=[[0]]),
                         ('[sensitive("s")]', []))

    def test_marks_inside_collections_are_inexpressible(self):
        with self.assertRaises(cty.Inexpressible):
            self.render(["list", ["object", {"a": "string"}]], [{"a": "s"}],
                        sensitive=[[0, "a"]])
        with self.assertRaises(cty.Inexpressible):
            self.render(["map", "string"], {"k": "s"}, sensitive=[["k"]])

    def test_negative_zero_inside_a_node(self):
        typed = {"type": ["set", "number"], "value": [decimal.Decimal("-0"), 0]}
        self.assertEqual(cty.render(typed, U, lambda a, c: f"N({a}, {c})"),
                         "N([-0, 0], set(number))")
        with self.assertRaises(cty.Inexpressible):
            cty.render(typed, U, lambda a, c: "N", node_keeps_negative_zero=False)
        # Outside a node, a literal keeps it.
        bare = {"type": "number", "value": decimal.Decimal("-0")}
        self.assertEqual(cty.render(bare, U, lambda a, c: "N", node_keeps_negative_zero=False),
                         "-0")

    def test_convert_rendering_is_unchanged_without_nodes(self):
        typed = {"type": ["list", ["object", {"a": "string"}]], "value": [{"a": "s"}],
                 "sensitive": [[0, "a"]]}
        self.assertEqual(cty.render(typed, U),
                         'convert([{"a" = sensitive("s")}], list(object({a = string})))')

    def test_bad_values(self):
        for ty, value in [(["tuple", ["string"]], []), (["object", {"a": "string"}], {}),
                          ("dynamic", {"value": 1}), (["list", "number"], {"a": 1})]:
            with self.assertRaises(cty.BadValue, msg=(ty, value)):
                self.render(ty, value)


class ScopeModuleTest(unittest.TestCase):
    def test_a_module_per_node(self):
        module = kinds.ScopeModule("c4")
        self.assertEqual(module("[1]", "list(number)"), "module.c4_scope_0.v")
        self.assertEqual(module("[module.c4_scope_0.v]", "list(any)"), "module.c4_scope_1.v")
        self.assertEqual(module.calls, [("c4_scope_0", "c4_scope_0_module"),
                                        ("c4_scope_1", "c4_scope_1_module")])
        self.assertIn('module "c4_scope_1" {\n  source = "./c4_scope_1_module"\n\n'
                      '  v = [module.c4_scope_0.v]\n}', module.calls_text())
        files = module.files()
        self.assertEqual(sorted(files), ["c4_scope_0_module/main.tf", "c4_scope_1_module/main.tf"])
        self.assertEqual(files["c4_scope_1_module/main.tf"],
                         'variable "v" {\n  type = list(any)\n  nullable = true\n}\n\n'
                         'output "v" {\n  value = var.v\n}\n')


    def test_names_the_scope_lacks_come_from_a_module_too(self):
        module = kinds.ScopeModule("c2")
        self.assertEqual(module.undefined_prefix(), "module.c2_undefined.v.")
        self.assertEqual(module.calls, [("c2_undefined", "c2_undefined_module")])
        self.assertEqual(module.files(),
                         {"c2_undefined_module/main.tf": 'output "v" {\n  value = {}\n}\n'})


class VersionsTest(unittest.TestCase):
    def test_minor_or_release(self):
        self.assertEqual(versions.resolve("1.6").full, "1.6.6")
        self.assertEqual(versions.resolve("1.6.6").minor, "1.6")
        self.assertEqual(versions.resolve(versions.DEFAULT).full, "1.15.5")
        for text in ("1.7", "1.6.5", "1", ""):
            with self.assertRaises(versions.UnknownVersion, msg=text):
                versions.resolve(text)

    def test_convert_function_from_1_15(self):
        self.assertEqual([v.minor for v in versions.VERSIONS if v.has_convert_function],
                         ["1.15"])
        self.assertEqual([v.minor for v in versions.VERSIONS if not v.scope_by_modules],
                         ["1.15"])
        self.assertTrue(versions.resolve("1.15").with_scope_modules().scope_by_modules)

    def test_each_version_has_its_pinned_requirements(self):
        for version in versions.VERSIONS:
            with open(os.path.join(versions.ORACLE_DIR, version.venv_dir,
                                   "requirements.txt")) as f:
                text = f.read()
            self.assertIn(f"Terraform {version.full} ", text)
            self.assertRegex(text, r"\nlibterraform==[0-9.]+\n")


def planned(ty_json, value):
    return msgpack.packb([ty_json.encode(), value], use_bin_type=True)


UNKNOWN_EXT = msgpack.ExtType(0, b"\x00")
REFINED_EXT = msgpack.ExtType(0x0C, msgpack.packb({1: False}))


class DecodePlannedTest(unittest.TestCase):
    def test_table(self):
        table = [
            ('"number"', 3, {"type": "number", "value": 3}),
            ('"number"', "0.1", {"type": "number", "value": decimal.Decimal("0.1")}),
            ('"number"', 1.4142135623730951,
             {"type": "number", "value": decimal.Decimal("1.4142135623730951")}),
            ('"number"', float("-inf"), {"type": "number", "value": "-Infinity"}),
            # A whole number beyond int64 as a float: its digits are not known.
            ('["list","number"]', [float(2 ** 64), 2.5, 2 ** 62],
             {"type": ["list", "number"],
              "value": [decimal.Decimal("1.8446744073709552E+19"), decimal.Decimal("2.5"),
                        2 ** 62], "ambiguous": [[0]]}),
            # Powers of two and subnormals whose Go text may not be their repr; 0.5 and
            # 2 ** -10 are short enough either way.
            ('["list","number"]', [0.5, 2.0 ** -10, 2.0 ** -513, -(2.0 ** -513), 5e-324, 0.3],
             {"type": ["list", "number"],
              "value": [decimal.Decimal("0.5"), decimal.Decimal("0.0009765625"),
                        decimal.Decimal("3.7291703656001034e-155"),
                        decimal.Decimal("-3.7291703656001034e-155"),
                        decimal.Decimal("5e-324"), decimal.Decimal("0.3")],
              "ambiguous": [[2], [3], [4]]}),
            ('["list","string"]', ["a", UNKNOWN_EXT],
             {"type": ["list", "string"], "value": ["a", None], "unknown": [[1]]}),
            ('["object",{"a":"bool","b":"dynamic"}]', {"a": REFINED_EXT, "b": None},
             {"type": ["object", {"a": "bool", "b": "dynamic"}], "value": {"a": None, "b": None},
              "unknown": [["a"]], "refinements": [{"path": ["a"], "not_null": True}]}),
            ('["tuple",["string","number",["list","bool"]]]',
             [msgpack.ExtType(0x0C, msgpack.packb({1: False, 2: "ab-"})),
              msgpack.ExtType(0x0C, msgpack.packb({3: [1, True], 4: ["2.5", False]})),
              msgpack.ExtType(0x0C, msgpack.packb({1: False, 5: 1, 6: 3}))],
             {"type": ["tuple", ["string", "number", ["list", "bool"]]],
              "value": [None, None, None], "unknown": [[0], [1], [2]],
              "refinements": [
                  {"path": [0], "not_null": True, "string_prefix": "ab-"},
                  {"path": [1], "number_lower": {"value": "1", "inclusive": True},
                   "number_upper": {"value": "2.5", "inclusive": False}},
                  {"path": [2], "not_null": True, "length_lower": 1, "length_upper": 3}]}),
        ]
        for ty, value, want in table:
            self.assertEqual(cty.decode_planned(planned(ty, value)), want, ty)

    def test_wholly_unknown(self):
        data = msgpack.packb(UNKNOWN_EXT)
        self.assertEqual(cty.decode_planned(data),
                         {"type": "dynamic", "value": None, "unknown": [[]]})


def field(number, payload):
    """A length-delimited protocol buffers field."""
    return bytes([number << 3 | 2, len(payload)]) + payload


class PlanFileTest(unittest.TestCase):
    def test_output_with_sensitive_path(self):
        value = field(1, planned('["tuple",[["object",{"a":"number"}]]]', [{"a": 1}]))
        step = field(1, field(2, field(1, msgpack.packb(0)))) + field(1, field(1, b"a"))
        change = bytes([1 << 3, 1]) + field(2, value) + field(4, step)
        plan = bytes([1 << 3, 3]) + field(4, field(1, b"c7") + field(2, change) + b"\x18\x01")
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "p.tfplan")
            import zipfile
            with zipfile.ZipFile(path, "w") as z:
                z.writestr("tfplan", plan)
            outputs = planfile.read_outputs(path)
        self.assertEqual(outputs, {"c7": {
            "type": ["tuple", [["object", {"a": "number"}]]], "value": [{"a": 1}],
            "sensitive": [[0, "a"]]}})


class Case(kinds.Prepared):
    def __init__(self, name):
        super().__init__(name, "1", "", "1", True, False, None)


class BisectTest(unittest.TestCase):
    def test_failing_case_is_isolated(self):
        cases = [Case(f"c{i}") for i in range(7)]

        def run(batch_cases):
            if any(c.name == "c4" for c in batch_cases):
                raise TerraformFailure("panic: boom")
            return {c.name: {"result": {"type": "number", "value": 1}} for c in batch_cases}

        answers = batch._bisecting(cases, run)
        self.assertEqual(answers["c4"], {"crash": "panic: boom"})
        self.assertEqual(sorted(answers), sorted(c.name for c in cases))
        self.assertEqual(sum("crash" in a for a in answers.values()), 1)


class SourceRangeTest(unittest.TestCase):
    def test_ranges_map_back_onto_the_source(self):
        case = Case("c3")
        header = len(kinds._output_header("c3"))
        rng = {"start": {"line": 4, "column": 1, "byte": header},
               "end": {"line": 4, "column": 2, "byte": header + 1}}
        self.assertEqual(case.source_range(rng), {
            "start": {"line": 1, "column": 1, "byte": 0},
            "end": {"line": 1, "column": 2, "byte": 1}})
        self.assertIsNone(case.source_range({"start": {"line": 1, "byte": 0},
                                             "end": {"line": 1, "byte": 1}}))


class ModuleArgumentTest(unittest.TestCase):
    def test_detail_is_told_as_the_variable_defaults(self):
        case = kinds.Prepared("c7", "x", "", "x", True, False, None)
        diag = {"summary": kinds.MODULE_ARGUMENT_SUMMARY,
                "detail": "The given value is not suitable for module.c7.var.v declared at "
                          "c7_module/main.tf:1,1-13: string required, but have tuple."}
        self.assertEqual(case.detail(diag), diag["detail"])
        case.module_argument = True
        self.assertEqual(case.detail(diag), "This default value is not compatible with the "
                         "variable's type constraint: string required, but have tuple.")
        other = {"summary": "Unsupported attribute", "detail": diag["detail"]}
        self.assertEqual(case.detail(other), diag["detail"])


if __name__ == "__main__":
    unittest.main()
