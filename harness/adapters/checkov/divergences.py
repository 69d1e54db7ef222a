"""Writes docs/checkov-divergences.md from a value-level run report.

    harness/adapters/checkov/setup.sh
    hclspec run --level value --timeout 20 --format json \\
        --engine "harness/adapters/checkov/.venv/bin/python harness/adapters/checkov/engine.py" > checkov.json
    harness/adapters/checkov/.venv/bin/python harness/adapters/checkov/divergences.py checkov.json \\
        > docs/checkov-divergences.md

Every case Checkov does not pass is given one cause: the first rule of
``RULES`` that matches it. The rules look at the case (source, scope,
kind), Terraform's answer and Checkov's, and at Checkov's own table of
functions (``SAFE_EVAL_DICT``, hence the adapter's virtualenv). Nothing in
the output is written by hand: change a rule and run the script again.
"""

import json
import re
import sys
from collections import Counter, defaultdict

from checkov.terraform.graph_builder.variable_rendering.safe_eval_functions import SAFE_EVAL_DICT

# Checkov's `try` is a renamed entry of its table.
CHECKOV_FUNCTIONS = {name for name, f in SAFE_EVAL_DICT.items() if callable(f)} | {"try"}
EXAMPLES = 3
NOT_PASSED = ("fail", "error-mismatch", "crash", "timeout", "protocol-error")

CALL = re.compile(r"(?<![\w.])([a-z_][a-z0-9_]*)\s*\(")
EXPONENT = re.compile(r"(?<![\w.])\d+(\.\d*)?[eE][+-]?\d")
COMPARISON = re.compile(r"==|!=|<=|>=|&&|\|\||(?<![<-])<(?!<)|(?<!=)>")
FOR = re.compile(r"[\[{]\s*for\s")
SPLAT = re.compile(r"\[\*\]|\.\*")
ARITHMETIC_ONLY = re.compile(r"^[\d\s+\-*/%().]+$")
STRING_LITERAL = re.compile(r'"[^"\\]*"')
NON_ASCII_ESCAPE = re.compile(r"\\[uU]0*[89a-fA-F][0-9a-fA-F]|\\U0*1[0-9a-fA-F]{4}")


class Case:
    """One case of the report, with Terraform's and Checkov's answers."""

    def __init__(self, raw):
        self.raw = raw
        self.id = raw["id"]
        self.source = raw["source"]
        self.kind = raw["kind"]
        self.scope = raw.get("scope") or {}
        self.expected = raw["expected"]
        self.actual = raw["actual"] or {}

    @property
    def expects_error(self):
        return "error" in self.expected

    @property
    def expected_phase(self):
        return self.expected["error"]["phase"] if self.expects_error else None

    @property
    def actual_phase(self):
        return self.actual["error"]["phase"] if "error" in self.actual else None

    @property
    def has_value(self):
        return "result" in self.actual

    @property
    def exp(self):
        return self.expected["result"]["value"]

    @property
    def act(self):
        return self.actual["result"]["value"]

    def calls(self):
        return CALL.findall(self.source)

    def missing_functions(self):
        return sorted({name for name in self.calls() if name not in CHECKOV_FUNCTIONS})

    def both_values(self):
        return not self.expects_error and self.has_value


# --- Predicates ---------------------------------------------------------------


def strings_sorted_last(items):
    """The order Checkov's clean_parser_types gives a list: the other
    elements as they were, then the strings sorted."""
    if not isinstance(items, list):
        return items
    items = [strings_sorted_last(i) for i in items]
    return [i for i in items if not isinstance(i, str)] + sorted(i for i in items if isinstance(i, str))


def sorted_like_the_parser(case):
    if not case.both_values():
        return False
    exp, act = case.exp, case.act
    return exp != act and normalized(strings_sorted_last(exp)) == normalized(act)


def permutation(case):
    if not case.both_values() or not isinstance(case.exp, list) or not isinstance(case.act, list):
        return False
    exp, act = [json.dumps(v, sort_keys=True) for v in case.exp], [json.dumps(v, sort_keys=True) for v in case.act]
    return exp != act and sorted(exp) == sorted(act)


def normalized(value):
    """JSON text with numbers as floats, for comparisons that ignore
    precision."""
    return json.dumps(value, sort_keys=True, default=str)


def leaves(value, keep):
    """The leaves of a value (inside lists and dicts) for which ``keep`` is true."""
    if isinstance(value, list):
        return [x for v in value for x in leaves(v, keep)]
    if isinstance(value, dict):
        return [x for v in value.values() for x in leaves(v, keep)]
    return [value] if keep(value) else []


def numbers_in(value):
    return leaves(value, lambda x: isinstance(x, (int, float)) and not isinstance(x, bool))


def strings(value):
    return leaves(value, lambda x: isinstance(x, str))


def shape(value):
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return "#"
    if isinstance(value, list):
        return [shape(v) for v in value]
    if isinstance(value, dict):
        return {k: shape(v) for k, v in value.items()}
    return value


def float_rounding(case):
    """The same structure, numbers that agree to 1e-9 relative (or are the
    same float): Checkov computes with Python floats."""
    if not case.both_values() or shape(case.exp) != shape(case.act):
        return False
    pairs = list(zip(numbers_in(case.exp), numbers_in(case.act)))
    if not pairs or all(float(e) == a and not isinstance(a, float) for e, a in pairs):
        return False
    return all(close(e, a) for e, a in pairs)


def close(expected, actual):
    try:
        e, a = float(expected), float(actual)
    except (TypeError, ValueError, OverflowError):
        return False
    return e == a or abs(e - a) <= 1e-9 * max(abs(e), abs(a))


def modulo_sign(case):
    return "%" in case.source and case.both_values() and bool(numbers_in(case.act)) and shape(case.exp) == shape(case.act)


def parentheses_dropped(case):
    """An arithmetic source whose value Checkov gives is the value without
    its parentheses (the parser drops them)."""
    if not case.both_values() or "(" not in case.source or not ARITHMETIC_ONLY.match(case.source):
        return False
    try:
        return eval(case.source.replace("(", "").replace(")", "")) == case.act  # noqa: S307 -- digits and operators only
    except Exception:  # noqa: BLE001
        return False


def terraform_string_of(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if value is None:
        return None
    return json.dumps(value)


def no_string_conversion(case):
    """Terraform's answer has strings where Checkov's has the numbers or
    bools they are the strings of: Checkov converts no types."""
    return case.both_values() and converted_only(case.exp, case.act) is True


def converted_only(exp, act):
    """True when ``act`` is ``exp`` but for leaves Terraform converted to
    strings, None when they are equal, False otherwise."""
    if isinstance(exp, str) and not isinstance(act, str) and act is not None and not isinstance(act, (list, dict)):
        return True if terraform_string_of(act) == exp or str(act) == exp else False
    if isinstance(exp, list) and isinstance(act, list) and len(exp) == len(act):
        found = [converted_only(e, a) for e, a in zip(exp, act)]
    elif isinstance(exp, dict) and isinstance(act, dict) and set(exp) == set(act):
        found = [converted_only(exp[k], act[k]) for k in exp]
    else:
        return None if exp == act else False
    if False in found:
        return False
    return True if True in found else None


def strings_retyped(case):
    """Terraform's answer is a string, Checkov's a number, bool or null read
    from it: the evaluator reads string values as Python literals."""
    if not case.both_values() or not isinstance(case.exp, str) or isinstance(case.act, str):
        return False
    return case.exp.strip().lower() in {str(case.act).lower(), terraform_string_of(case.act)}


def comparison_null(case):
    return case.both_values() and case.act is None and case.exp is not None and COMPARISON.search(case.source) is not None


def line_breaks_lost(case):
    if not case.both_values() or not isinstance(case.exp, str) or not isinstance(case.act, str):
        return False
    return "\n" in case.exp and case.act in (case.exp.replace("\n", ""), case.exp.rstrip("\n"))


def python_text(case):
    """Checkov's answer holds the Python spelling of null, true or false, or
    of a collection: Python values printed back into text."""
    texts = [t for t in strings(case.act)] if case.has_value else []
    return any(re.search(r"\b(None|True|False)\b|\{'|\['", t) for t in texts)


def source_text(case):
    """Checkov's answer is (a piece of) the expression's text: a string
    that holds one of the source's calls, operators or names."""
    if not case.has_value:
        return False
    texts = strings(case.act)
    if not texts:
        return False
    squeezed = re.sub(r"\s+", "", case.source)
    markers = [f"{name}(" for name in case.calls()] + [m for m in ("?", "==", "[*]", ".*", "=>", "...") if m in case.source]
    for text in texts:
        flat = re.sub(r"\s+", "", text)
        if any(m in flat for m in markers):
            return True
        if len(flat) > 2 and flat in squeezed and not STRING_LITERAL.fullmatch(squeezed):
            return True
    return False


def escapes(case):
    return "\\" in case.source or any("\\" in t or "\n" in t or '"' in t for t in scope_strings(case.scope))


def scope_strings(scope):
    return [s for typed in scope.values() for s in strings(typed.get("value"))]


def graphemes(case):
    """A string function on text outside ASCII: Python counts code points,
    Terraform grapheme clusters."""
    names = {"length", "substr", "strrev", "format", "formatlist", "title", "upper", "lower"}
    text = case.source + "".join(scope_strings(case.scope))
    outside_ascii = any(ord(c) > 127 for c in text) or re.search(r"\\[uU]", case.source)
    return bool(names & set(case.calls())) and bool(outside_ascii)


def referenced(case):
    """The scope variables the source names (the attributes of a scope
    ``var`` as ``var.NAME``), with their values."""
    found = {}
    for name, typed in case.scope.items():
        value = typed.get("value")
        if name == "var" and isinstance(value, dict):
            for attribute, v in value.items():
                if re.search(rf"\bvar\.{re.escape(attribute)}\b", case.source):
                    found[attribute] = v
        elif re.search(rf"(?<![\w.]){re.escape(name)}\b", case.source):
            found[name] = value
    return found


def prefix_substitution(case):
    """Two variables the source uses, one name the start of the other
    (``var.l``, ``var.ln``): Checkov substitutes by text replacement."""
    names = list(referenced(case))
    return case.has_value and any(a != b and b.startswith(a) for a in names for b in names)


def unquoted_strings(case):
    """Checkov's text holds a string variable's value where the source has
    the variable, without quotes: ``lower(var.p)`` is ``lower(App)``."""
    values = [v for v in referenced(case).values() if isinstance(v, str) and v]
    return case.has_value and any(
        re.search(rf"[(,\[]\s*{re.escape(v)}\s*[,)\]]", t) for v in values for t in strings(case.act)
    )


def object_keys(case):
    """Objects whose keys differ: computed keys (``{(k) = 1}``, ``{"${x}" =
    1}``, ``{1 + 1 = 2}``) are kept as their text."""
    return (
        case.both_values() and isinstance(case.exp, dict) and isinstance(case.act, dict) and set(case.exp) != set(case.act)
    )


def sorted_variable(case):
    """The source uses a variable holding a list that Checkov's parser
    reorders when it reads the variable's default."""

    def reordered(value):
        if isinstance(value, list):
            return strings_sorted_last(value) != value or any(reordered(v) for v in value)
        if isinstance(value, dict):
            return any(reordered(v) for v in value.values())
        return False

    return any(reordered(v) for v in referenced(case).values())


def implemented_function(case):
    calls = case.calls()
    return bool(calls) and not case.missing_functions()


def directives(case):
    return "%{" in case.source


def template_or_heredoc(case):
    return case.kind == "template" or "<<" in case.source


# --- The rules -----------------------------------------------------------------

# (key, title, explanation, predicate): the first that matches names a case's cause.
RULES = [
    (
        "exponent",
        "No exponent in number literals",
        "bc-python-hcl2, Checkov's HCL parser, has no exponent notation: `1e3` is a syntax error, and "
        "Checkov skips the whole file it stands in (it reports a parsing error and checks nothing there).",
        lambda c: c.actual_phase == "parse" and c.expected_phase != "parse" and EXPONENT.search(c.source),
    ),
    (
        "parse-rejects",
        "Valid syntax the parser rejects",
        "Other expressions HCL accepts that bc-python-hcl2 rejects (`!!x`, nested heredocs, some "
        "line breaks and comments): Checkov skips the file.",
        lambda c: c.actual_phase == "parse" and c.expected_phase != "parse",
    ),
    (
        "parse-accepts",
        "Invalid syntax the parser accepts",
        "Sources HCL rejects (bad escapes, unbalanced template directives, misplaced line breaks) that "
        "bc-python-hcl2 reads, keeping their text: Checkov evaluates them to a value.",
        lambda c: c.expected_phase == "parse" and c.actual_phase != "parse",
    ),
    (
        "errors-as-text",
        "Terraform fails; Checkov gives the expression's text",
        "Checkov's evaluator has no errors: an expression it can not evaluate (a wrong argument, a "
        "missing attribute, an operation on null) comes back as its own text, with variables "
        "substituted and `${}` removed. Unless that text starts with `var.`, `local.`, `module.`, "
        "`data.`, `lookup(`, `list(` or `file(` or holds an interpolation, its checks take it for "
        "a string value.",
        lambda c: c.expects_error and c.has_value and (source_text(c) or python_text(c)),
    ),
    (
        "errors-as-values",
        "Terraform fails; Checkov computes a value",
        "Where Terraform rejects an operation (a negative index, a type mismatch, a condition "
        "that is not a bool, too many arguments), Python's operation on the values Checkov holds "
        "gives a value.",
        lambda c: c.expects_error and c.has_value,
    ),
    (
        "sorted-lists",
        "Lists of strings come back sorted",
        "`clean_parser_types`, which Checkov runs on every file it reads, sorts each list of the "
        "configuration: it keeps the other elements and appends the strings in sorted order "
        "(`[\"b\", 1, \"a\"]` is read as `[1, \"a\", \"b\"]`), in attribute values and variable defaults alike.",
        sorted_like_the_parser,
    ),
    (
        "order",
        "Elements in another order",
        "The right elements in another order: `keys` and `values` keep a map's insertion order where "
        "Terraform sorts by key, sets keep Python's order, `sort` sorts Python values.",
        permutation,
    ),
    (
        "floats",
        "Binary floating point",
        "Checkov computes with Python floats, where Terraform's numbers are exact (512-bit): "
        "`0.1 + 0.2` is 0.30000000000000004 and big integers lose digits once divided. "
        "(These cases pass with `hclspec run --numbers f64` only where both round to the same float.)",
        float_rounding,
    ),
    (
        "parentheses",
        "Parentheses dropped",
        "bc-python-hcl2 gives `(a + b) * c` back as `a + b * c`: the parentheses are lost before "
        "Checkov evaluates the text.",
        parentheses_dropped,
    ),
    (
        "modulo",
        "Python's remainder",
        "`%` is Python's: its result takes the divisor's sign (`-5 % 3` is 1; Terraform -2).",
        modulo_sign,
    ),
    (
        "comparison-null",
        "Comparisons and logical operators give null",
        "`==`, `!=`, `<`, `>`, `<=`, `>=`, `&&` and `||` come back as null. `evaluate_terraform` gets "
        "`${1 < 2}`, strips the interpolation, and `evaluate_compare` computes `True`; but the function "
        "returns `second_evaluated_value`, which it sets only when the value is still a string, so it "
        "returns None (`evaluate_terraform(\"1 < 2\")` without the `${}` is `True`).",
        comparison_null,
    ),
    (
        "for",
        "`for` expressions",
        "A `for` expression comes back as its text, or as the text of its result expression once per "
        "element (`[for i in x : i * 2]` is `[\"i * 2\", \"i * 2\", \"i * 2\"]`).",
        lambda c: FOR.search(c.source),
    ),
    (
        "splat",
        "Splat expressions",
        "`[*]` and `.*` are not evaluated: the value is the text, with the variable's Python repr in it.",
        lambda c: SPLAT.search(c.source),
    ),
    (
        "missing-function",
        "Functions Checkov does not have",
        "Checkov's function table (`SAFE_EVAL_DICT`) has {implemented} entries (`parseint` is spelt "
        "`parsint` there); a call of any other function comes back as the call's text, which its checks "
        "take for a string. The functions, by cases: {functions}.",
        lambda c: bool(c.missing_functions()),
    ),
    (
        "prefix-substitution",
        "A variable replaced inside a longer name",
        "Variables are substituted by text replacement: with variables `l` and `ln`, `var.ln` becomes "
        "the value of `var.l` followed by `n` (`concat(var.l, var.ln)` is the text "
        "`concat(['a', 'b', 'c'],['a', 'b', 'c']n)`).",
        prefix_substitution,
    ),
    (
        "unquoted-strings",
        "String variables substituted without quotes",
        "A string variable is substituted into the expression's text without quotes, so a call on it "
        "does not evaluate: `lower(var.prefix)` with `prefix = \"App\"` is the text `lower(App)`.",
        unquoted_strings,
    ),
    (
        "object-keys",
        "Object keys not evaluated",
        "Keys of an object constructor that are expressions (`{(var.k) = 1}`, `{\"${x}\" = 1}`, "
        "`{1 + 1 = 2}`) stay as their text.",
        object_keys,
    ),
    (
        "to-string",
        "No conversion to string",
        "Where Terraform converts a number or bool to a string (a conditional's or collection's common "
        "type, `tostring`, string arguments), Checkov keeps the Python number or bool.",
        no_string_conversion,
    ),
    (
        "retyped-strings",
        "Strings read back as Python values",
        "The evaluator evaluates string values as Python expressions: `\"5\"` becomes 5, `\"true\"` true.",
        strings_retyped,
    ),
    (
        "line-breaks",
        "Line breaks lost",
        "`evaluate_terraform` deletes every line break of the text it evaluates, and bc-python-hcl2 "
        "drops a heredoc's last line break.",
        line_breaks_lost,
    ),
    (
        "graphemes",
        "Code points instead of grapheme clusters",
        "`length`, `substr`, `strrev` and `format` widths count Python code points; Terraform counts "
        "grapheme clusters (`length(\"e\\u0301\")` is 1).",
        graphemes,
    ),
    (
        "sorted-variable",
        "A variable's list reordered by the parser",
        "The source uses a variable whose default holds a list that `clean_parser_types` reorders "
        "(strings sorted, after the other elements) when Checkov reads the file: `element`, `index`, "
        "`for` and indexing then see another order.",
        sorted_variable,
    ),
    (
        "implemented-function",
        "Functions Checkov implements differently",
        "Checkov's own Python versions of Terraform functions give other results: `jsonencode` returns "
        "its argument, `trimprefix` and `trimsuffix` strip a set of characters (`lstrip`, `rstrip`), `regex` and "
        "`regexall` are Python's `re` (no `\\p{{...}}`, other syntax) and `regexall` with groups gives "
        "the first match's, `indent` returns its input, and a Python exception gives the call's text. "
        "By the first function called: {functions}.",
        implemented_function,
    ),
    (
        "directives",
        "Template directives",
        "`%{if}` and `%{for}` directives: only a lone `%{if}...%{else}...%{endif}` is rewritten into a "
        "conditional; otherwise the directive markers are dropped and their text kept.",
        directives,
    ),
    (
        "unary",
        "`-` and `!` before a variable",
        "A variable after a unary `-` or `!` (`-var.n`, `!var.flag`) is not substituted: the value is "
        "the text, which does not start with `var.` and so is taken for a string.",
        lambda c: c.has_value and any(re.search(r"[-!]\s*var\.", t) for t in strings(c.act)),
    ),
    (
        "strip-markers",
        "Strip markers",
        "`${~ x ~}` keeps its `~` markers in the text, and the interpolation is not evaluated.",
        lambda c: re.search(r"\$\{~|~\}", c.source) is not None,
    ),
    (
        "python-text",
        "Python values printed into text",
        "The answer holds Python's spelling of a value (`None`, `True`, `{'a': 1}`): a variable or "
        "partial result was substituted into text that was then not evaluated.",
        python_text,
    ),
    (
        "source-text",
        "Expressions left as text",
        "The answer is (part of) the expression's text: an index, attribute access, conditional or "
        "operator Checkov does not evaluate.",
        source_text,
    ),
    (
        "escapes",
        "Escape sequences",
        "bc-python-hcl2 keeps escapes (`\\n`, `\\\"`, `\\u00e9`) as text; the evaluator then reads some "
        "of them as Python does and leaves others.",
        escapes,
    ),
    (
        "templates",
        "Templates and heredocs",
        "Other differences in interpolated strings and heredocs.",
        template_or_heredoc,
    ),
    ("other", "Other", "Cases no rule above describes.", lambda c: True),
]


def classify(case):
    for key, _, _, predicate in RULES:
        if predicate(case):
            return key
    raise AssertionError("the last rule matches every case")


# --- The document ----------------------------------------------------------------


def answer_text(answer):
    if not answer:
        return "(no answer)"
    if "result" in answer:
        return "`" + short(json.dumps(answer["result"]["value"], ensure_ascii=False)) + "`"
    if "error" in answer:
        summary = answer["error"].get("summary")
        return f"{answer['error']['phase']} error" + (f" ({short(summary, 60)})" if summary else "")
    if "unsupported" in answer:
        return "unsupported"
    return next(iter(answer))


def short(text, limit=90):
    text = text.replace("|", "\\|").replace("\n", "\\n")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def source_cell(case):
    if not case.source:
        return "(empty)"
    return "`" + short(case.source, 80).replace("`", "'") + "`"


def document(report):
    cases = [Case(raw) for raw in report["cases"]]
    failing = [c for c in cases if c.raw["outcome"] in NOT_PASSED]
    by_cause = defaultdict(list)
    for case in failing:
        by_cause[classify(case)].append(case)
    rules = {key: (title, text) for key, title, text, _ in RULES}
    totals = report["totals"]
    unsupported = [c for c in cases if c.raw["outcome"] == "unsupported"]
    answered = totals["cases"] - len(unsupported)

    out = []
    out.append("# Where Checkov's Terraform evaluator differs from Terraform\n")
    out.append(
        "Generated by `harness/adapters/checkov/divergences.py` from a value-level run of the corpus "
        "with the Checkov engine (`harness/adapters/checkov/`, Checkov 3.3.30); its docstring says how to "
        "run it again. Each case Checkov does not pass is given one cause, by the first rule that "
        "matches it, in the order below; the sections are sorted by count. Terraform's answers are the "
        "corpus's (recorded from Terraform 1.15.5). Judged at the value level: lists and tuples, maps "
        "and objects are not told apart; numbers are exact.\n"
    )
    out.append(
        f"{totals['cases']} cases: {totals['passed']} pass ({totals['pass_percent']}%), "
        f"{len(failing)} differ, {len(unsupported)} unsupported. Of the {answered} cases Checkov "
        f"answered, {percent(totals['passed'], answered)} pass.\n"
    )
    out.append("| cause | cases |\n| --- | ---: |")
    ordered = sorted(by_cause.items(), key=lambda kv: (-len(kv[1]), [r[0] for r in RULES].index(kv[0])))
    for key, members in ordered:
        out.append(f"| [{rules[key][0]}](#{anchor(rules[key][0])}) | {len(members)} |")
    out.append("")
    for key, members in ordered:
        title, text = rules[key]
        if key == "missing-function":
            text = text.format(implemented=len(CHECKOV_FUNCTIONS), functions=missing_function_counts(members))
        if key == "implemented-function":
            text = text.format(functions=first_function_counts(members))
        out.append(f"## {title}\n\n{len(members)} cases. {text}\n")
        out.append("| case | source | Terraform | Checkov |\n| --- | --- | --- | --- |")
        for case in sorted(members, key=lambda c: (len(c.source), c.id))[:EXAMPLES]:
            out.append(f"| {case.id} | {source_cell(case)} | {answer_text(case.expected)} | {answer_text(case.actual)} |")
        out.append("")
    out.append("## Unsupported\n")
    out.append(
        "What the engine answers `unsupported`, by reason (README.md of the adapter says why). These "
        "count apart from the differences.\n"
    )
    out.append("| reason | cases |\n| --- | ---: |")
    reasons = Counter(reason_of(c) for c in unsupported)
    for reason, count in reasons.most_common():
        out.append(f"| {short(reason, 120)} | {count} |")
    out.append("")
    return "\n".join(out)


def reason_of(case):
    reason = case.actual.get("unsupported", "")
    return re.sub(r"'[^']*'", "'…'", reason)


def missing_function_counts(members):
    counts = Counter(name for c in members for name in c.missing_functions())
    return ", ".join(f"`{name}` {n}" for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def first_function_counts(members):
    counts = Counter(c.calls()[0] for c in members)
    return ", ".join(f"`{name}` {n}" for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def percent(part, whole):
    return f"{100 * part / whole:.1f}%" if whole else "-"


def anchor(title):
    return re.sub(r"[^a-z0-9 -]", "", title.lower()).replace(" ", "-")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: divergences.py REPORT.json")
    with open(sys.argv[1], encoding="utf-8") as f:
        report = json.load(f)
    if report.get("level") != "value":
        sys.exit("the report is not of a value-level run")
    sys.stdout.write(document(report))


if __name__ == "__main__":
    main()
